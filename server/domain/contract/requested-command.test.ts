import { describe, expect, it } from "vitest";
import { requestedCommand } from "./requested-command";

describe("requestedCommand", () => {
  it.each([
    ["run `npm test`", "npm test"],
    ["Run `make`.", "make"],
    ["please run `git log --oneline -5`", "git log --oneline -5"],
    ["`cargo test`", "cargo test"],
    ["run `pwd` (qa-fail)", "pwd"],
  ])("%s is the command %s", (what, command) => expect(requestedCommand(what)).toBe(command));

  it.each(["fix the failing test in `sum.js`", "run `a` and run `b`", "run the tests", "explain `npm test`"])(
    "%s is not itself a command",
    (what) => expect(requestedCommand(what)).toBeNull(),
  );
});
