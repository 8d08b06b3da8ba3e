import assert from "node:assert/strict";
import { test } from "node:test";

import { describeResult, headlineParts, resultHeadline } from "../../src/hisss/server/static/js/people.js";
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

test("the headline's names come apart from its words, for the end dialog's name boxes", () => {
  speak("en");
  const long = "Wolfeschlegelsteinhausenbergerdorffvoral";
  assert.deepEqual(headlineParts([1], names, { mine: [1] }), ["You win!"]);
  assert.deepEqual(headlineParts([2, 3], [long, "Bot 2", "Ola"], { mine: [1] }), [
    { name: "Bot 2" },
    " and ",
    { name: "Ola" },
    " share the win this time!",
  ]);
  const result = { winners: [1], explanations: {}, explanation: "", tie_break: null };
  const told = describeResult(result, [long, "Ola"]);
  assert.equal(told.headline, `${long} wins!`);
  assert.deepEqual(told.parts, [{ name: long }, " wins!"]);
});
