import assert from "node:assert/strict";
import { test } from "node:test";

import { followLog, isFresh } from "../../src/hisss/server/static/js/gamestate.js";

const play = (seq) => ({ seq, kind: "play", seat: 1, card: "M:red-orange", action: "1R:red" });

test("a state sent without its log follows the one before", () => {
  const before = { version: 4, log: [play(3)], last_event: play(3) };
  assert.deepEqual(followLog(before, { version: 5, last_event: play(5) }), [play(3), play(5)]);
  // A draw is not in the log; the same version again changes nothing.
  const draw = { seq: 5, kind: "draw", seat: 1, card: "H:red" };
  assert.deepEqual(followLog(before, { version: 5, last_event: draw }), [play(3)]);
  assert.deepEqual(followLog(before, { version: 4, last_event: play(3) }), [play(3)]);
  assert.deepEqual(followLog(null, { version: 1, last_event: play(1) }), []);
});

test("a step is fresh only after a state that had not shown it", () => {
  const before = { last_event: play(3) };
  assert.equal(isFresh(before, { last_event: play(4) }), true);
  assert.equal(isFresh(before, { last_event: play(3) }), false);
  assert.equal(isFresh(null, { last_event: play(4) }), false);
  assert.equal(isFresh({ last_event: null }, { last_event: play(1) }), true);
  assert.equal(isFresh(before, { last_event: null }), false);
});
