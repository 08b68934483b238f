import { describe, expect, it } from "vitest";
import type { Criterion } from "@/server/domain/contract/criteria";
import { judgeWithContract } from "./contract-judgment";

const npmTest: Criterion = { kind: "TESTS_PASS", command: "npm test" };

describe("judgeWithContract", () => {
  it("fails (never passes, never a mere gap) when a check could not run, with the reason", () => {
    const judged = judgeWithContract([
      {
        criterion: npmTest,
        passed: false,
        couldNotRun: "`npm` is not installed in this sandbox",
        evidence: "",
      },
    ]);
    expect(judged.judgment).toBe("FAILURE");
    expect(judged.reason).toContain("`npm` is not installed in this sandbox");
  });

  it("is SUCCESS only when every check passed", () => {
    expect(judgeWithContract([{ criterion: npmTest, passed: true, evidence: "ok" }]).judgment).toBe(
      "SUCCESS",
    );
    expect(judgeWithContract([{ criterion: npmTest, passed: false, evidence: "1 failing" }]).judgment).toBe(
      "PARTIAL",
    );
  });
});
