import assert from "node:assert/strict";
import { test } from "node:test";

import {
  cardName,
  parseAction,
  parseCard,
  parseSnake,
} from "../../src/hisss/server/static/js/cards.js";
import { speak } from "./catalogs.mjs";

test("cards and snakes read from their notation", () => {
  assert.deepEqual(parseCard("M:red-orange"), { kind: "M", a: "red", b: "orange", text: "M:red-orange" });
  assert.equal(parseSnake("H:red M:red-orange").length, 2);
});

test("an action names the snakes and ends it touches", () => {
  const join = parseAction("1R:orange+2L:yellow");
  assert.equal(join.kind, "join");
  assert.deepEqual(
    join.touches.map((x) => [x.snake, x.end]),
    [
      [1, "R"],
      [2, "L"],
    ],
  );
  assert.equal(parseAction("new").kind, "new");
});

test("a card is named in the reader's language", () => {
  speak("en");
  assert.equal(cardName("M:red-orange"), "red-orange mid-section");
  speak("pl");
  assert.notEqual(cardName("M:red-orange"), "red-orange mid-section");
});
