import { describe, expect, it } from "vitest";
import type { Criterion, CriterionResult } from "@/server/domain/contract/criteria";
import { baselinePlan, leafEvidence, weakestEvidence } from "./evidence";

const exists: Criterion = { kind: "FILE_EXISTS", path: "a.txt" };
const tests: Criterion = { kind: "TESTS_PASS", command: "npm test" };
const deploy: Criterion = { kind: "TESTS_PASS", command: "./deploy.sh" };
const passed = (criterion: Criterion): CriterionResult => ({ criterion, passed: true, evidence: "ok" });
const failed = (criterion: Criterion, couldNotRun?: string): CriterionResult => ({
  criterion,
  passed: false,
  evidence: "no",
  ...(couldNotRun ? { couldNotRun } : {}),
});
const last = (checks: CriterionResult[] | null, judgedBy = "auto"): Parameters<typeof leafEvidence>[1] =>
  ({
    checks,
    judgedBy,
    action: { type: "COMMAND", content: "x", target: null, tool: "shell.exec" },
    exitCode: 0,
  }) as Parameters<typeof leafEvidence>[1];

describe("baselinePlan: only checks safe to run twice run before the work", () => {
  it("runs file checks and the project's tests; skips a command that changes things and the intention's own command", () => {
    const intention = {
      id: "i",
      what: "run `make`",
      contract: [exists, tests, deploy, { kind: "TESTS_PASS", command: "make" } as Criterion],
    };
    expect(baselinePlan(intention)).toEqual({ run: [0, 1], skipped: [2, 3] });
  });
});

describe("leafEvidence", () => {
  const what = "fix the failing test in sum.js";

  it("red before the work, green after: red-to-green", () => {
    const baseline = { results: [{ index: 0, result: failed(tests) }], skipped: [] };
    expect(leafEvidence({ what, contract: [tests], baseline }, last([passed(tests)])).kind).toBe(
      "red-to-green",
    );
  });

  it("already green before any work: not evidence, and the reason says so", () => {
    const baseline = { results: [{ index: 0, result: passed(tests) }], skipped: [] };
    const evidence = leafEvidence({ what, contract: [tests], baseline }, last([passed(tests)]));
    expect(evidence.kind).toBeNull();
    expect(evidence.reason).toContain("already green before any work");
  });

  it("could not run at the baseline, or not safe to run twice: green after, no baseline (weaker)", () => {
    const notRun = {
      results: [{ index: 0, result: failed(tests, "`npm` is not installed in this sandbox") }],
      skipped: [],
    };
    expect(leafEvidence({ what, contract: [tests], baseline: notRun }, last([passed(tests)])).kind).toBe(
      "green-after-no-baseline",
    );
    const skipped = { results: [], skipped: [0] };
    expect(leafEvidence({ what, contract: [deploy], baseline: skipped }, last([passed(deploy)])).kind).toBe(
      "green-after-no-baseline",
    );
  });

  it("an intention that is itself a command, with that exact command passing: ran-as-requested", () => {
    const make: Criterion = { kind: "TESTS_PASS", command: "make" };
    expect(leafEvidence({ what: "run `make`", contract: [make] }, last([passed(make)])).kind).toBe(
      "ran-as-requested",
    );
  });

  it("no check at all: no check — not verified; a person's explicit verdict is accepted-by-person", () => {
    expect(leafEvidence({ what, contract: [] }, last(null))).toMatchObject({
      kind: null,
      reason: expect.stringContaining("no check — not verified"),
    });
    expect(leafEvidence({ what, contract: [] }, last(null, "Grace")).kind).toBe("accepted-by-person");
    expect(leafEvidence({ what, contract: [] }, last(null, "policy")).kind).toBeNull();
  });
});

describe("weakestEvidence", () => {
  it("a parent rests on the weakest child; a child without a kind means none", () => {
    expect(weakestEvidence([{ evidence: "red-to-green" }, { evidence: "green-after-no-baseline" }])).toBe(
      "green-after-no-baseline",
    );
    expect(weakestEvidence([{ evidence: "red-to-green" }, { evidence: "ran-as-requested" }])).toBe(
      "ran-as-requested",
    );
    expect(weakestEvidence([{ evidence: "red-to-green" }, {}])).toBeNull();
  });
});

describe("leafEvidence: the project's detected tests as a fallback (issue #15 items 2, 3)", () => {
  const what = "replace `a - b` with `a + b` in `sum.js`";
  const contains: Criterion = { kind: "FILE_CONTAINS", path: "sum.js", text: "a + b" };
  const detected: Criterion = {
    kind: "TESTS_PASS",
    command: "node --test --test-reporter=tap test/sum.test.js",
  };
  const contractBy = { detectedTests: [1] };

  it("named check green before, detected tests red before and green after: red-to-green", () => {
    const baseline = {
      results: [
        { index: 0, result: passed(contains) },
        { index: 1, result: failed(detected) },
      ],
      skipped: [],
    };
    const evidence = leafEvidence(
      { what, contract: [contains, detected], baseline, contractBy },
      last([passed(contains), passed(detected)]),
    );
    expect(evidence).toEqual({ kind: "red-to-green", reason: expect.stringContaining("test/sum.test.js") });
  });

  it("detected tests that could not run before the work are no evidence (never green after, no baseline)", () => {
    const baseline = {
      results: [
        { index: 0, result: passed(contains) },
        { index: 1, result: failed(detected, "the check needs a person's approval") },
      ],
      skipped: [],
    };
    const evidence = leafEvidence(
      { what, contract: [contains, detected], baseline, contractBy },
      last([passed(contains), passed(detected)]),
    );
    expect(evidence.kind).toBeNull();
    expect(evidence.reason).toContain("no check — not verified");
    expect(evidence.reason).toContain("could not run before it");
    // The same check named by the acceptance (not a fallback) is the weaker kind, as before.
    expect(
      leafEvidence(
        { what, contract: [contains, detected], baseline, contractBy: { detectedTests: [] } },
        last([passed(contains), passed(detected)]),
      ).kind,
    ).toBe("green-after-no-baseline");
  });

  it("detected tests already green before the work: not verified", () => {
    const baseline = {
      results: [{ index: 0, result: passed(detected) }],
      skipped: [],
    };
    const evidence = leafEvidence(
      { what, contract: [detected], baseline, contractBy: { detectedTests: [0] } },
      last([passed(detected)]),
    );
    expect(evidence.kind).toBeNull();
    expect(evidence.reason).toContain("already green before any work");
  });
});
