import assert from "node:assert/strict";
import { test } from "node:test";

import { resultHeadline } from "../../src/hisss/server/static/js/people.js";
import { speak } from "./catalogs.mjs";

const names = ["Ala", "Bot 2", "Ola"];

test("one player at the table reads their own result", () => {
  speak("en");
  assert.equal(resultHeadline([1], names, { mine: [1] }), "You win!");
  assert.equal(resultHeadline([1, 3], names, { mine: [1] }), "You share the win with Ola!");
  assert.equal(resultHeadline([2], names, { mine: [1] }), "Bot 2 wins this time!");
  assert.equal(
    resultHeadline([2, 3], names, { mine: [1] }),
    "Bot 2 and Ola share the win this time!",
  );
});

test("people on one device are congratulated by name; a bot's win is plain", () => {
  speak("en");
  const seats = [{ kind: "person" }, { kind: "bot" }, { kind: "person" }];
  const device = { mine: [1, 3], device: true, seats };
  assert.equal(resultHeadline([3], names, device), "Ola wins! Congratulations!");
  assert.equal(resultHeadline([2], names, device), "Bot 2 wins!");
});

test("a spectator reads who won", () => {
  speak("en");
  assert.equal(resultHeadline([3], names), "Ola wins!");
  speak("pl");
  assert.equal(resultHeadline([1], names, { mine: [1] }), "Wygrywasz!");
});
