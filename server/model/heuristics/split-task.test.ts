import { describe, expect, it } from "vitest";
import { explicitCommand, firstCodeSpan } from "./code-spans";
import { deriveAcceptance, MAX_CHILDREN, splitTask } from "./split-task";

describe("splitTask", () => {
  it.each([
    ["run `npm test`", ["run `npm test`"]],
    ["list files", ["list files"]],
    ["run `npm install` and then run `npm test`", ["run `npm install`", "run `npm test`"]],
    ["install deps, then run the tests", ["install deps", "run the tests"]],
    ["list files then show git status", ["list files", "show git status"]],
    ["list files and also show git status", ["list files", "show git status"]],
    ["list files, also show git status", ["list files", "show git status"]],
    [
      "Create the file `a.txt`; then run `cat a.txt`; also show git status",
      ["Create the file `a.txt`", "run `cat a.txt`", "show git status"],
    ],
    ["first list files\nthen show git status", ["list files", "show git status"]],
    ["run `ls` and `pwd`", ["run `ls`", "`pwd`"]],
  ])("splits %j on its compound markers", (task, expected) => {
    expect(splitTask(task)).toEqual(expected);
  });

  it("splits numbered and bulleted lists, dropping a preamble that ends with a colon", () => {
    expect(
      splitTask("Please do the following:\n1. list files\n2. show git status\n3) run `npm test`"),
    ).toEqual(["list files", "show git status", "run `npm test`"]);
    expect(splitTask("- list files\n* show git status\n• run `ls`")).toEqual([
      "list files",
      "show git status",
      "run `ls`",
    ]);
  });

  it("never splits inside backticks", () => {
    expect(splitTask("run `echo a and b; then c` and then run `ls`")).toEqual([
      "run `echo a and b; then c`",
      "run `ls`",
    ]);
    expect(splitTask("run ```\nmake; make test\n```")).toEqual(["run ```\nmake; make test\n```"]);
  });

  it("keeps a one-word fragment with its neighbour instead of making it a step", () => {
    expect(splitTask("create a.txt and b.txt")).toEqual(["create a.txt and b.txt"]);
    expect(splitTask("search and replace")).toEqual(["search and replace"]);
    expect(splitTask("add tests for foo and bar")).toEqual(["add tests for foo and bar"]);
  });

  it("merges the tail so there are at most five parts", () => {
    const parts = splitTask("a b and c d and e f and g h and i j and k l and m n");
    expect(parts).toHaveLength(MAX_CHILDREN);
    expect(parts).toEqual(["a b", "c d", "e f", "g h", "i j; k l; m n"]);
    // The merged tail is compound again, so planning it later splits it further.
    expect(splitTask(parts[4] ?? "")).toEqual(["i j", "k l", "m n"]);
  });

  it("splits a task over 200 characters without compound markers into its sentences", () => {
    const long =
      "This is a long task description that goes on. It describes several things that need to happen. " +
      "We set up the project structure properly. We add a configuration file with sensible defaults for everyone.";
    expect(long.length).toBeGreaterThan(200);
    expect(splitTask(long)).toHaveLength(4);
  });

  it("leaves a short multi-sentence task alone", () => {
    expect(splitTask("Fix it. Now.")).toEqual(["Fix it. Now"]);
  });

  it("returns nothing for a blank task and strips connectives and trailing punctuation", () => {
    expect(splitTask("   ")).toEqual([]);
    expect(splitTask("then list files.")).toEqual(["list files"]);
  });

  it("is deterministic", () => {
    const task = "run `a b` and then run `c d`; also list files";
    expect(splitTask(task)).toEqual(splitTask(task));
  });
});

describe("deriveAcceptance", () => {
  it.each([
    ["run `npm test`", "the command `npm test` exits 0"],
    ["create file notes.txt with hi", "the file `notes.txt` contains `hi`"],
    ["replace `foo` with `bar` in `src/a.js`", "the file `src/a.js` contains `bar`"],
    ["create a new file `src/a.ts`", "the file `src/a.ts` exists"],
    ["fix the bug in `src/app.ts`", "the step completes without error"],
    ["tidy up", "the step completes without error"],
  ])("%j → %j", (step, acceptance) => {
    expect(deriveAcceptance(step)).toBe(acceptance);
  });
});

describe("code spans", () => {
  it("finds the first span, inline or fenced", () => {
    expect(firstCodeSpan("use `a` then `b`")).toBe("a");
    expect(firstCodeSpan("```sh\nnpm test\n```")).toBe("npm test");
    expect(firstCodeSpan("no code")).toBeUndefined();
    expect(firstCodeSpan("empty `` span")).toBeUndefined();
  });

  it.each([
    ["run `ls`", "ls"],
    ["`pwd`", "pwd"],
    ["`pwd`.", "pwd"],
    ["check that `npm test` passes", "npm test"],
    ["verify with `pytest`", "pytest"],
    ["```\nmake\n```", "make"],
    ["fix the bug in `src/app.ts`", undefined],
    ["update `README.md` with notes", undefined],
  ])("explicitCommand(%j) = %j", (text, command) => {
    expect(explicitCommand(text)).toBe(command);
  });
});
