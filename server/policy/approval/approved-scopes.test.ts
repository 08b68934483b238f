import { describe, expect, it } from "vitest";
import { EventBody, type EventInput } from "@/server/domain/events/schema";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { foldEvents } from "@/server/domain/session/fold";
import { childIntentions } from "@/server/riva/decide/children";
import { TOOLS } from "@/server/tools/registry";
import { gateToolCall } from "@/server/tools/tool-gate";
import { approvedScopesFor, checkStatusOf } from "./approved-scopes";

/**
 * "Approve the check, not every diff", end to end through the pure parts: a decomposition approved by
 * a person (or by the auto checkpoint) → the folded session → the child's approved scope → the
 * dispatch's approval stage. The table is the issue's: inside / outside / protected / dangerous /
 * red check / no approval.
 */

const CHILD = { what: "write src/util.ts", acceptance: "file `src/util.ts` exists", ownedScope: ["src/**"] };
const CRITERION = { kind: "FILE_EXISTS", path: "src/util.ts" } as const;

function sessionWith(options: {
  approvedBy: "person" | "auto" | null;
  check?: "green" | "red";
  contract?: boolean;
}) {
  const parent = { id: "root", depth: 0 };
  const children = childIntentions(
    "run-1",
    parent,
    [CHILD],
    options.approvedBy === "person" ? { approvalId: "ap-1", name: "Ada" } : undefined,
  );
  const childId = (children[0] as { intentionId: string }).intentionId;
  const events: EventInput[] = [
    {
      type: "run-started",
      runId: "run-1",
      task: "t",
      mode: "agent",
      model: { id: "m", label: "m", offline: true },
    },
    {
      type: "intention-created",
      runId: "run-1",
      intentionId: "root",
      parentId: null,
      what: "t",
      acceptance: "",
      depth: 0,
      position: 0,
    },
    ...children,
  ];
  if (options.contract !== false)
    events.push({ type: "contract-built", runId: "run-1", intentionId: childId, criteria: [CRITERION] });
  if (options.check) {
    events.push(
      {
        type: "cycle-started",
        runId: "run-1",
        intentionId: childId,
        cycleId: "cy-1",
        index: 0,
        thought: "t",
        action: { type: "COMMAND", content: "true" },
      },
      {
        type: "criteria-checked",
        runId: "run-1",
        intentionId: childId,
        cycleId: "cy-1",
        results: [{ criterion: CRITERION, passed: options.check === "green", evidence: "" }],
      },
    );
  }
  const view = foldEvents(
    events.map((body, index) => ({
      seq: index + 1,
      at: "2026-01-01T00:00:00Z",
      body: EventBody.parse(body),
    })),
  );
  return { view, childId };
}

function decide(tool: keyof typeof TOOLS, input: unknown, session: ReturnType<typeof sessionWith>) {
  const parsed = TOOLS[tool].input.parse(input);
  return gateToolCall({
    tool: TOOLS[tool] as never,
    input: parsed,
    activeIntent: { id: session.childId, ownedScope: ["**"] },
    policy: {
      checkpoints: CheckpointPolicy.parse({}),
      approvedScopes: approvedScopesFor(session.view, session.childId),
      approveWhenCheckUnknown: true,
    },
    realPaths: [],
    secretFindings: [],
  });
}

const approved = () => sessionWith({ approvedBy: "person" });
const write = (path: string) => ["fs.write", { path, content: "x" }] as const;

describe("a write while a child with an approved scope is worked", () => {
  it.each([
    ["inside the scope, check not run yet", approved, write("src/util.ts"), "approve"],
    [
      "inside the scope, check green",
      () => sessionWith({ approvedBy: "person", check: "green" }),
      write("src/a/b.ts"),
      "approve",
    ],
    [
      "an edit inside the scope",
      approved,
      ["fs.edit", { path: "src/util.ts", search: "a", replace: "b" }] as const,
      "approve",
    ],
    ["outside the scope", approved, write("docs/readme.md"), "ask"],
    [
      "a protected path inside ** (package.json)",
      () => sessionWith({ approvedBy: "person" }),
      write("package.json"),
      "ask",
    ],
    ["a dangerous tool inside the scope", approved, ["fs.delete", { path: "src/util.ts" }] as const, "ask"],
    [
      "inside the scope after a red check",
      () => sessionWith({ approvedBy: "person", check: "red" }),
      write("src/util.ts"),
      "ask",
    ],
    [
      "no approval: the decomposition was approved automatically",
      () => sessionWith({ approvedBy: "auto" }),
      write("src/util.ts"),
      "ask",
    ],
    [
      "no approval at all (never decomposed)",
      () => sessionWith({ approvedBy: null }),
      write("src/util.ts"),
      "ask",
    ],
    [
      "no acceptance check to keep green",
      () => sessionWith({ approvedBy: "person", contract: false }),
      write("src/util.ts"),
      "ask",
    ],
  ])("%s → %s", (_case, session, [tool, input], expected) => {
    expect(decide(tool, input, session()).decision).toBe(expected);
  });

  it("the dangerous and protected cases ask for confirmation, the outside case says why", () => {
    expect(decide("fs.delete", { path: "src/util.ts" }, approved()).confirm).toBe(true);
    expect(decide("fs.write", { path: "package.json", content: "x" }, approved()).reason).toContain(
      "protected",
    );
    expect(decide("fs.write", { path: "docs/r.md", content: "x" }, approved()).reason).toContain(
      "outside every approved scope",
    );
  });

  it("a scope whose recorded binding does not match the child (edited after approval) grants nothing", () => {
    const session = approved();
    const child = session.view.intentions[session.childId];
    if (!child) throw new Error("no child");
    child.ownedScope = ["**"];
    expect(approvedScopesFor(session.view, session.childId)).toEqual([]);
  });

  it("another intention does not inherit the child's scope", () => {
    const session = approved();
    expect(approvedScopesFor(session.view, "root")).toEqual([]);
    expect(approvedScopesFor(session.view, undefined)).toEqual([]);
  });

  it("records who approved the scope, bound to the child", () => {
    const { view, childId } = approved();
    expect(view.intentions[childId]?.scopeApproval).toMatchObject({ approvalId: "ap-1", approvedBy: "Ada" });
    expect(view.intentions[childId]?.scopeApproval?.binding).toMatch(/^v2:sha256:[0-9a-f]{64}$/);
  });
});

describe("checkStatusOf", () => {
  const result = (passed: boolean) => ({ criterion: CRITERION, passed, evidence: "" });
  const cycleWith = (checks: ReturnType<typeof result>[] | null) => ({ checks }) as never;
  it.each([
    [{ cycles: [], integrationChecks: null }, "unknown"],
    [{ cycles: [cycleWith([result(true)])], integrationChecks: null }, "green"],
    [{ cycles: [cycleWith([result(true), result(false)])], integrationChecks: null }, "red"],
    [{ cycles: [cycleWith([result(false)]), cycleWith(null)], integrationChecks: null }, "red"],
    [{ cycles: [cycleWith([result(false)]), cycleWith([result(true)])], integrationChecks: null }, "green"],
  ])("%j → %s", (intention, expected) => {
    expect(checkStatusOf(intention)).toBe(expected);
  });
});
