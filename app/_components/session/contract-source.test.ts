import { describe, expect, it } from "vitest";
import { requestSourceNote } from "./contract-source";

describe("the note on a contract read from the request", () => {
  it("calls a lone command check the intention's own command", () => {
    expect(requestSourceNote([{ kind: "TESTS_PASS", command: "make" }])).toMatch(/itself a command/);
  });

  it("does not call an edit's file check a command", () => {
    const note = requestSourceNote([{ kind: "FILE_CONTAINS", path: "calc.py", text: "a + b" }]);
    expect(note).not.toMatch(/command/);
    expect(note).toMatch(/own words/);
  });
});
