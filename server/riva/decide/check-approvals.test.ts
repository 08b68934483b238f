import { describe, expect, it } from "vitest";
import { CHECK_PLAN_VERSION } from "@/server/domain/contract/child-checks";
import type { ApprovalView, SessionView } from "@/server/domain/session/view";
import { personApprovalForCheck } from "./check-approvals";
import { commandBinding } from "./contract-judgment";

function approval(fields: Partial<ApprovalView>): ApprovalView {
  return {
    id: "a1",
    runId: "r1",
    intentionId: "parent",
    kind: "decomposition",
    thought: "",
    children: [],
    status: "APPROVED",
    decidedBy: "Ada",
    decidedById: "u-ada",
    reason: null,
    requestedSeq: 1,
    requestedAt: "",
    decidedAt: "",
    command: null,
    editedCommand: null,
    binding: null,
    confirm: false,
    gateReason: "",
    proposal: null,
    answer: null,
    call: null,
    editedCall: null,
    preview: null,
    checkPlanVersion: CHECK_PLAN_VERSION,
    ...fields,
  };
}

const child = {
  contract: [],
  id: "c1",
  parentId: "parent",
  what: "make it pass",
  acceptance: "the command `npm test` exits 0",
};
const view = (...approvals: ApprovalView[]) => ({
  approvals: Object.fromEntries(approvals.map((item, index) => [`a${index}`, item])),
  runs: {} as SessionView["runs"],
});

describe("personApprovalForCheck", () => {
  it("a person's approval of the decomposition card covers exactly the checks it listed, by hash", () => {
    const card = view(approval({}));
    expect(personApprovalForCheck(card, child, "npm test")).toEqual({
      binding: commandBinding("npm test"),
      approver: "Ada",
    });
    expect(personApprovalForCheck(card, child, "npm test ")).toBeNull();
    expect(personApprovalForCheck(card, child, "npm test && rm -rf .")).toBeNull();
  });

  it("with the workspace's test script known, the card listed (and the approval covers) the reporter form only", () => {
    const runs = {
      r1: {
        intent: { codebase: { testFramework: "vitest", testScript: "vitest run" }, prompt: { targets: [] } },
      },
    } as unknown as SessionView["runs"];
    const card = { ...view(approval({})), runs };
    const runsForm = "npm test -- --reporter=default --reporter=json";
    expect(personApprovalForCheck(card, child, runsForm)).toEqual({
      binding: commandBinding(runsForm),
      approver: "Ada",
    });
    expect(personApprovalForCheck(card, child, "npm test")).toBeNull();
  });

  it("an approval given under an older check plan (or before plans were versioned) covers no check", () => {
    expect(personApprovalForCheck(view(approval({ checkPlanVersion: null })), child, "npm test")).toBeNull();
    expect(
      personApprovalForCheck(view(approval({ checkPlanVersion: CHECK_PLAN_VERSION - 1 })), child, "npm test"),
    ).toBeNull();
  });

  it("the auto checkpoint's approval, a rejection or another parent's card covers nothing", () => {
    expect(personApprovalForCheck(view(approval({ decidedById: "auto" })), child, "npm test")).toBeNull();
    expect(personApprovalForCheck(view(approval({ status: "REJECTED" })), child, "npm test")).toBeNull();
    expect(personApprovalForCheck(view(approval({ intentionId: "other" })), child, "npm test")).toBeNull();
  });

  it("a command card covers the command as approved; an edit covers only the edited command", () => {
    const card = approval({ kind: "command", intentionId: "c1", command: "npm test" });
    expect(personApprovalForCheck(view(card), child, "npm test")?.approver).toBe("Ada");
    const edited = approval({
      kind: "command",
      intentionId: "c1",
      command: "npm test",
      editedCommand: "true",
    });
    expect(personApprovalForCheck(view(edited), child, "npm test")).toBeNull();
  });
});

describe("personApprovalForCheck: the card's other checks (issue #15)", () => {
  const codebase = {
    testFramework: "node:test",
    testCommand: "npm test",
    testFiles: ["test/sum.test.js"],
  };
  const discovered = (approvals: ApprovalView[]) => ({
    ...view(...approvals),
    runs: { r1: { intent: { codebase, prompt: { targets: ["sum.js"] } } } } as unknown as SessionView["runs"],
  });

  it("a child that is itself a command: the card listed that command, and its approval covers it", () => {
    const own = { contract: [], id: "c1", parentId: "parent", what: "run `make`", acceptance: "" };
    expect(personApprovalForCheck(discovered([approval({})]), own, "make")?.approver).toBe("Ada");
  });

  it("a child with no named check: the card listed the project's detected tests, scoped to its target", () => {
    const fix = { contract: [], id: "c1", parentId: "parent", what: "fix `sum.js`", acceptance: "it works" };
    const card = discovered([approval({})]);
    expect(
      personApprovalForCheck(card, fix, "node --test --test-reporter=tap test/sum.test.js")?.approver,
    ).toBe("Ada");
    expect(personApprovalForCheck(card, fix, "npm test")).toBeNull();
    // Without discovery's test command the card listed no detected tests, and covers none.
    expect(
      personApprovalForCheck(view(approval({})), fix, "node --test --test-reporter=tap test/sum.test.js"),
    ).toBeNull();
  });
});

describe("personApprovalForCheck: a split intention's own checks at integration", () => {
  it("the card of its own split listed its contract's commands, and a person's approval covers them", () => {
    const parent = {
      id: "parent",
      parentId: null,
      what: "do both",
      acceptance: "",
      contract: [{ kind: "TESTS_PASS" as const, command: "npm test" }],
    };
    expect(personApprovalForCheck(view(approval({})), parent, "npm test")?.approver).toBe("Ada");
    expect(personApprovalForCheck(view(approval({})), parent, "npm test -- --all")).toBeNull();
    expect(personApprovalForCheck(view(approval({ decidedById: "auto" })), parent, "npm test")).toBeNull();
  });
});

describe("personApprovalForCheck: the regression guard on a root's card", () => {
  const root = {
    id: "parent",
    parentId: null,
    what: "fix sum.js and then tidy",
    acceptance: "",
    contract: [],
  };
  const runs = (rootId: string) =>
    ({
      r1: {
        id: "r1",
        rootId,
        mode: "agent",
        intent: {
          codebase: { testCommand: "npm test", testFramework: "node:test", testScript: "node --test" },
        },
      },
    }) as unknown as SessionView["runs"];
  const GUARD = "npm test -- --test-reporter=tap";

  it("the root's card listed the guard in its reporter form, and a person's approval covers exactly it", () => {
    const card = { ...view(approval({})), runs: runs("parent") };
    expect(personApprovalForCheck(card, root, GUARD)?.approver).toBe("Ada");
    expect(personApprovalForCheck(card, root, "npm test")).toBeNull();
    expect(personApprovalForCheck({ ...card, runs: runs("someone-else") }, root, GUARD)).toBeNull();
    const auto = { ...view(approval({ decidedById: "auto" })), runs: runs("parent") };
    expect(personApprovalForCheck(auto, root, GUARD)).toBeNull();
  });
});
