import { describe, expect, it } from "vitest";
import { OFFLINE_EXAMPLES, offlineCannotReadText } from "@/server/domain/intent/offline-syntax";
import { stepsOfflineCannotRead } from "./understood";

describe("what the offline model can read", () => {
  it("reads every example the task box offers", () => {
    for (const example of OFFLINE_EXAMPLES) expect(stepsOfflineCannotRead(example.task)).toEqual([]);
  });

  it("names the plain-English steps it cannot read, and only those", () => {
    expect(stepsOfflineCannotRead("fix the failing test in the sum function")).toEqual([
      "fix the failing test in the sum function",
    ]);
    expect(stepsOfflineCannotRead("run `npm test` and then make the code nicer")).toEqual([
      "make the code nicer",
    ]);
  });

  it("answers with what it can do and how to configure a model", () => {
    const text = offlineCannotReadText(["make it faster"]);
    expect(text).toContain('"make it faster"');
    expect(text).toContain("run `npm test`");
    expect(text).toContain("Model settings");
    expect(text).toContain("nothing was run");
  });
});
