import { describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { EventStore } from "@/server/events/store";
import { textOf } from "@/testing/fake-model/request";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";
import { restoreContextItem } from "./context-restore";

/**
 * The act request built from the store, with every real part: SQLite, the Docker sandbox, and the AI
 * SDK over HTTP to the fake model server, which records what it was sent. A person restores an
 * attempt the compression shortened; the next act request carries it in full, under their name, next
 * to the chain from the root to the child being worked.
 */
const world = orchestratorWorld({ repoName: "Restored", fakeModel: true });
const { actor } = world;

/**
 * Long output (so its one line is shortened), exit 3 (so the attempt is a miss), and a clock reading
 * so two attempts never look stalled (the same action with the same result would decompose).
 */
const FAILING = "seq 1 400; date +%N; exit 3";
const TASK = `run \`${FAILING}\` and then run \`pwd\``;

async function pendingApproval(notId?: string) {
  for (let i = 0; i < 600; i++) {
    const approval = await world.db.approval.findFirst({
      where: { sessionId: world.sessionId, status: "PENDING", ...(notId ? { id: { not: notId } } : {}) },
    });
    if (approval) return approval;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("no approval was requested");
}

/** The system text of every act request the fake server received, in order. */
function actPrompts(): string[] {
  return world.fakeModel.requests.flatMap((request) => {
    const body = request.body as { messages?: { role: string; content?: unknown }[]; tools?: unknown[] };
    const system = body.messages?.find((message) => message.role === "system");
    const text = system ? textOf(system) : "";
    return text.includes("## What this request is built from") ? [text] : [];
  });
}

describe("the act request's context, restored items included", () => {
  it("sends the chain root → child and, after a restore, the shortened attempt in full", async () => {
    const orch = world.orchestrator({
      model: world.scriptedModel("default"),
      checkpointsOf: async () => CheckpointPolicy.parse({ commands: "never-ask", judgeAction: "ask" }),
    });
    const { runId } = await orch.startRun({ sessionId: world.sessionId, task: TASK, mode: "agent", actor });
    const split = await pendingApproval();
    expect(split.kind).toBe("decomposition");
    await orch.decide({
      sessionId: world.sessionId,
      approvalId: split.id,
      decision: "approved",
      reason: null,
      actor,
    });

    // Attempt 1 of the first child: a miss (the auto judgment, confirmed by the person).
    const first = await pendingApproval(split.id);
    expect(first.kind).toBe("judgment");
    await orch.decide({
      sessionId: world.sessionId,
      approvalId: first.id,
      decision: "approved",
      reason: null,
      actor,
    });

    // Attempt 2 was built with attempt 1 shortened: recorded, with its label, and restorable.
    const second = await pendingApproval(first.id);
    const view = await world.view();
    const child = Object.values(view.intentions).find(
      (intention) => intention.depth === 1 && intention.position === 0,
    );
    if (!child) throw new Error("no first child");
    const attempt1 = child.cycles[0]?.id ?? "";
    expect(child.compressed?.dropped).toEqual([
      expect.objectContaining({
        item: "attempt",
        id: attempt1,
        how: "shortened",
        label: `attempt 1: ${FAILING} → FAILURE`,
      }),
    ]);
    const store = new EventStore(world.db);
    const restore = (itemId: string) =>
      restoreContextItem(store, { sessionId: world.sessionId, runId, intentionId: child.id, itemId, actor });
    await expect(restore("no-such-item")).rejects.toThrow(/Nothing called "no-such-item" was left out/);
    expect(await restore(attempt1)).toEqual({ restored: true });
    expect(await restore(attempt1)).toEqual({ restored: false });

    // The person calls attempt 2 unclear (not a second failure), so the child is tried a third time.
    await orch.decide({
      sessionId: world.sessionId,
      approvalId: second.id,
      decision: "rejected",
      reason: "not sure",
      answer: { question: "judge_action", judgment: "UNCLEAR" },
      actor,
    });
    await pendingApproval(second.id);
    const prompts = actPrompts();
    const third = prompts.at(-1) ?? "";
    expect(prompts).toHaveLength(3);
    expect(third).toContain(`1. ${TASK}\n   Acceptance:`);
    expect(third).toMatch(
      /Approved decisions: split into 2 parts, approved by Ada: run `seq 1 400; date \+%N; exit 3`; run `pwd`/,
    );
    expect(third).toContain(`2. run \`${FAILING}\` ← current`);
    expect(third).toContain(
      `## Restored by Ada (in full, as a person asked)\n\n### attempt 1: ${FAILING} → FAILURE`,
    );
    // In full: the middle of the output, which the one-line summary squeezed out, is there.
    expect(third).toContain("\n200\n201\n");
    expect(prompts[1]).not.toContain("## Restored by");

    // The log: the restore, and a new compression record that no longer lists attempt 1.
    const after = await world.view();
    const worked = after.intentions[child.id];
    expect(worked?.restored).toEqual([expect.objectContaining({ id: attempt1, by: "Ada", item: "attempt" })]);
    expect(worked?.compressed?.dropped.map((item) => item.id)).toEqual([worked?.cycles[1]?.id]);
    await orch.stop(world.sessionId, runId);
    await orch.idle();
  }, 90_000);
});
