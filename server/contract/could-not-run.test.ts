import { describe, expect, it } from "vitest";
import { couldNotRunReason } from "./could-not-run";

const ran = (exitCode: number, stderr = "", stdout = "", timedOut = false) => ({
  exitCode,
  stderr,
  stdout,
  timedOut,
});

describe("couldNotRunReason", () => {
  it("names the missing program (bash's own words, exit 127)", () => {
    expect(couldNotRunReason("npm test", ran(127, "bash: line 1: npm: command not found\n"))).toBe(
      "`npm` is not installed in this sandbox",
    );
    expect(couldNotRunReason("cd a && pytest", ran(127, "sh: 1: pytest: not found"))).toBe(
      "`pytest` is not installed in this sandbox",
    );
  });

  it("takes exit 127 and 126 as not run even without a recognisable message", () => {
    expect(couldNotRunReason("./run.sh", ran(127))).toContain("could not start");
    expect(couldNotRunReason("./run.sh", ran(126, "bash: ./run.sh: Permission denied"))).toContain(
      "could not be executed",
    );
  });

  it("takes `command not found` under another exit code as not run", () => {
    expect(couldNotRunReason("make check", ran(2, "make: tsc: command not found"))).toBe(
      "`tsc` is not installed in this sandbox",
    );
  });

  it("takes a time limit as not run", () => {
    expect(couldNotRunReason("npm test", ran(124, "", "", true))).toContain("time limit");
  });

  it("leaves a command that ran alone, passed or failed", () => {
    expect(couldNotRunReason("npm test", ran(0))).toBeNull();
    expect(couldNotRunReason("npm test", ran(1, "1 failing test: adds numbers"))).toBeNull();
    // The tests themselves talking about "not found" is a red test, not a missing program.
    expect(
      couldNotRunReason("npm test", ran(1, "expected element to be found, but it was not found")),
    ).toBeNull();
  });
});
