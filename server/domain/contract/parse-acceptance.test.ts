import { describe, expect, it } from "vitest";
import { parseAcceptance } from "./parse-acceptance";

describe("parseAcceptance", () => {
  it.each([
    ["the command `npm test` exits 0", [{ kind: "TESTS_PASS", command: "npm test" }]],
    ["`pytest -q` passes", [{ kind: "TESTS_PASS", command: "pytest -q" }]],
    ["the file `notes.txt` exists", [{ kind: "FILE_EXISTS", path: "notes.txt" }]],
    ["src/app.ts is created", [{ kind: "FILE_EXISTS", path: "src/app.ts" }]],
    ["`README.md` contains `Usage`", [{ kind: "FILE_CONTAINS", path: "README.md", text: "Usage" }]],
    ["function `add` exists in `math.py`", [{ kind: "FUNCTION_EXISTS", name: "add", path: "math.py" }]],
    ["method `render()` is defined", [{ kind: "FUNCTION_EXISTS", name: "render", path: null }]],
    [
      "generated test `test_add.py` passes with `pytest test_add.py`",
      [{ kind: "GENERATED_TEST_PASSES", path: "test_add.py", command: "pytest test_add.py" }],
    ],
  ])("reads %j", (acceptance, expected) => {
    expect(parseAcceptance(acceptance)).toEqual(expected);
  });

  it("reads several criteria in order and drops duplicates", () => {
    expect(
      parseAcceptance(
        "the file `a.txt` exists and `a.txt` contains `hi`; `make` exits 0; the file `a.txt` exists",
      ),
    ).toEqual([
      { kind: "FILE_EXISTS", path: "a.txt" },
      { kind: "FILE_CONTAINS", path: "a.txt", text: "hi" },
      { kind: "TESTS_PASS", command: "make" },
    ]);
  });

  it.each([
    "every part of the task is done",
    "the user's request is fulfilled",
    "the step completes without error",
    "",
  ])("finds nothing checkable in %j", (acceptance) => {
    expect(parseAcceptance(acceptance)).toEqual([]);
  });
});
