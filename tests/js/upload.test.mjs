import assert from "node:assert/strict";
import { test } from "node:test";

import { megabytes, uploadProblem } from "../../src/hisss/server/static/js/lobbyjoin.js";
import { speak } from "./catalogs.mjs";

const refused = (details) => ({ code: "bad_record", details });

test("a refused record names the true cause", () => {
  speak("en");
  assert.match(uploadProblem(refused({ turn: 49, kind: "result" })), /result it gives/);
  assert.match(uploadProblem(refused({ turn: 10, kind: "cards" })), /order of its cards breaks at turn 10/);
  assert.match(uploadProblem(refused({ turn: 3, kind: "move" })), /move of turn 3 is not allowed/);
  assert.match(uploadProblem(refused({ line: 1, column: 812 })), /line 1, column 812/);
  assert.match(uploadProblem(refused({ turn: 0, kind: "setup" })), /players, rules or deck/);
});

test("a file over the limit names the limit", () => {
  speak("en");
  assert.equal(megabytes(1_048_576), "1 MB");
  assert.equal(
    uploadProblem({ code: "too_large", details: {} }, 1_048_576),
    "the file is larger than the limit of 1 MB.",
  );
});

test("the causes are said in Polish too", () => {
  speak("pl");
  assert.match(uploadProblem(refused({ turn: 49, kind: "result" })), /wynik/);
  assert.match(uploadProblem(refused({ line: 1, column: 812 })), /wierszu 1, w kolumnie 812/);
  assert.match(uploadProblem({ code: "too_large", details: {} }, 1_048_576), /1 MB/);
});
