import { describe, expect, it } from "vitest";
import type { CriterionResult } from "@/server/domain/contract/criteria";
import { emptySessionView } from "@/server/domain/session/fold";
import type { ApprovalView, IntentionView, RunView, SessionView } from "@/server/domain/session/view";
import { pullRequestBody, pullRequestRequest } from "./pull-request";

const TEST = { kind: "TESTS_PASS", command: "npm test" } as const;
const red: CriterionResult = { criterion: TEST, passed: false, evidence: "not ok 1 - sum\n```nested```" };
const green: CriterionResult = { criterion: TEST, passed: true, evidence: "ok 1 - sum" };

function intention(id: string, fields: Partial<IntentionView>): IntentionView {
  return {
    id,
    runId: "r1",
    parentId: null,
    what: id,
    status: "PENDING",
    childIds: [],
    cycles: [],
    contract: [],
    integrationChecks: null,
    ...fields,
  } as IntentionView;
}

function session(): SessionView {
  const view = emptySessionView();
  view.runOrder = ["r1"];
  view.runs.r1 = { id: "r1", rootId: "root" } as RunView;
  view.intentions.root = intention("root", {
    what: "Fix sum",
    status: "VERIFIED",
    evidence: "red-to-green",
    childIds: ["child"],
    contract: [TEST],
    baseline: { results: [{ index: 0, result: red }], skipped: [] },
    integrationChecks: [green],
  });
  view.intentions.child = intention("child", {
    parentId: "root",
    what: "Edit sum.js",
    status: "VERIFIED",
    evidence: "accepted-by-person",
    acceptedBy: "Ada",
  });
  view.approvals.a1 = {
    id: "a1",
    kind: "tool",
    status: "APPROVED",
    decidedBy: "Ada",
    decidedById: "u1",
    command: "npm test",
    call: null,
    reason: null,
    requestedSeq: 3,
  } as unknown as ApprovalView;
  view.approvals.a2 = {
    id: "a2",
    kind: "tool",
    status: "APPROVED",
    decidedBy: "auto",
    decidedById: "auto",
    command: "ls",
    call: null,
    reason: null,
    requestedSeq: 5,
  } as unknown as ApprovalView;
  view.approvals.a3 = {
    id: "a3",
    kind: "tool",
    status: "PENDING",
    requestedSeq: 6,
  } as unknown as ApprovalView;
  return view;
}

describe("the pull request of a session", () => {
  it("has the tree, the checks red → green with their evidence, the approvals with who, and the replay", () => {
    const body = pullRequestBody(session(), "http://arbor/projects/p/sessions/s/replay");
    expect(body).toContain("- **VERIFIED** Fix sum — red → green");
    expect(body).toContain("  - **VERIFIED** Edit sum.js — accepted by a person (Ada)");
    expect(body).toContain("- `npm test` exits 0: red → green");
    // The evidence's own backticks cannot close its code block.
    expect(body).toContain("````\n  not ok 1 - sum\n  ```nested```\n  ````");
    expect(body).toContain("- approved by Ada: tool `npm test`");
    expect(body).toContain("- approved by the auto checkpoint: tool `ls`");
    expect(body).not.toContain("pending");
    expect(body).toContain("[The session's replay](http://arbor/projects/p/sessions/s/replay)");
  });

  it("is the request GitHub takes, with a one-line title and a capped body", () => {
    const view = session();
    const root = view.intentions.root as IntentionView;
    root.what = "x".repeat(70_000);
    const request = pullRequestRequest({
      view,
      title: "  Fix\nsum  ",
      head: "arbor/s",
      base: "main",
      replayUrl: "http://r",
    });
    expect(request).toMatchObject({ title: "Fix sum", head: "arbor/s", base: "main", draft: false });
    expect(request.body.length).toBeLessThanOrEqual(60_100);
    expect(request.body).toMatch(/cut: the whole session is in \[the replay\]\(http:\/\/r\)\)$/);
  });

  it("says when there was nothing to show", () => {
    const body = pullRequestBody(emptySessionView(), "http://r");
    expect(body).toContain("(no runs)");
    expect(body).toContain("(no checks ran)");
    expect(body).toContain("(none asked)");
  });
});
