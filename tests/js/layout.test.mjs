import assert from "node:assert/strict";
import { test } from "node:test";

import {
  cardWidthFor,
  GHOST_EXTRA,
  ROW_GAP,
  smallestCard,
  tableLayout,
} from "../../src/hisss/server/static/js/layout.js";

const row = (cards, ghosts = 0) => ({ cards, ghosts, extra: 40 });

test("the smallest card grows with the screen and for colour-blind symbols", () => {
  assert.equal(smallestCard(390), 36);
  assert.equal(smallestCard(768), 48);
  assert.equal(smallestCard(1280), 64);
  assert.equal(smallestCard(390, true), 48);
});

test("a short table gets the largest cards", () => {
  assert.equal(cardWidthFor([row(1)], 1000, 800), 170);
});

test("the longest snake fits the width on one row", () => {
  const size = cardWidthFor([row(2), row(9, 2)], 600, 600, { min: 36 });
  assert.ok(9 * size + 2 * (size + GHOST_EXTRA) + 40 <= 600, `${size} px cards overflow`);
  assert.ok(9 * (size + 2) + 2 * (size + 2 + GHOST_EXTRA) + 40 > 600, "a larger size fits");
});

test("many snakes share the height", () => {
  const rows = Array.from({ length: 8 }, () => row(2));
  const size = cardWidthFor(rows, 2000, 500, { min: 36 });
  assert.ok(8 * (size * (2 / 3)) + 7 * ROW_GAP <= 500);
  assert.ok(size < 170);
});

test("past the smallest size the cards stay at it (the table scrolls)", () => {
  assert.equal(cardWidthFor([row(40)], 300, 600, { min: 36 }), 36);
});

test("a wide table of short snakes sets them side by side for larger cards", () => {
  const rows = Array.from({ length: 6 }, () => row(3));
  const one = cardWidthFor(rows, 1000, 430);
  const best = tableLayout(rows, 1000, 430);
  assert.ok(best.columns > 1, `one column of ${one} px is best?`);
  assert.ok(best.size > one);
  // A long snake keeps one column: two would make its cards smaller.
  assert.equal(tableLayout([row(14), row(1)], 1000, 430).columns, 1);
});
