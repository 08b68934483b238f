import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { EventStore } from "@/server/events/store";
import { ofType } from "@/testing/events/events";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";

/**
 * Issue #21.1 with every real part (SQLite, the Docker sandbox, the AI SDK over HTTP to the fake model
 * server, which records each request): the project's AGENTS.md, committed on the default branch,
 * reaches every request that plans, acts or checks — and, being longer than its budget, is
 * shortened with a marker and a compression record, never dropped.
 */
const world = orchestratorWorld({ repoName: "Instructed", fakeModel: true });
const git = promisify(execFile);

const RULE = "ARBOR-RULE-7: keep every greeting in lower case";
// Longer than the request budget (4,000 characters), so every act request is compressed.
const AGENTS_MD = `# Agent rules\n\n${RULE}.\n\n\`\`\`sh\nnpm test\n\`\`\`\n\n${"Background notes. ".repeat(400)}\nTAIL-NOT-SENT`;

beforeAll(async () => {
  const work = await mkdtemp(path.join(tmpdir(), "arbor-agents-md-"));
  try {
    await git("git", ["clone", "-q", world.repoPath, work]);
    await writeFile(path.join(work, "AGENTS.md"), AGENTS_MD);
    await git("git", ["add", "AGENTS.md"], { cwd: work });
    await git("git", ["-c", "user.name=T", "-c", "user.email=t@t", "commit", "-qm", "rules"], { cwd: work });
    await git("git", ["push", "-q", "origin", "HEAD:main"], { cwd: work });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});

interface WireBody {
  messages?: { role: string; content?: unknown }[];
  tools?: { function?: { name?: string } }[];
}
const toolNamesOf = (body: unknown) =>
  ((body as WireBody).tools ?? []).map((tool) => tool.function?.name ?? "");
const textOf = (body: unknown) => JSON.stringify((body as WireBody).messages ?? []);

function stageOf(body: unknown): "plan" | "act" | "check" | "other" {
  const tools = toolNamesOf(body);
  if (tools.includes("work_directly") || tools.includes("propose_decomposition")) return "plan";
  if (tools.includes("submit_delivery") || tools.includes("propose_contract")) return "check";
  if (tools.some((name) => name.startsWith("shell_") || name.startsWith("fs_"))) return "act";
  return "other";
}

describe("AGENTS.md in every request that plans, acts or checks", () => {
  it("is read at discovery from the default branch and sent to plan, act and the delivery check", async () => {
    const before = world.fakeModel.requests.length;
    const orch = world.orchestrator({
      model: world.scriptedModel("default"),
      checkpointsOf: async () => CheckpointPolicy.parse({ decompositions: "auto" }),
    });
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "run `ls` and then run `pwd`",
      mode: "agent",
      actor: world.actor,
    });
    await world.approveUntilEnded(orch, runId);
    const events = (await new EventStore(world.db).read(world.sessionId)).flatMap((event) =>
      "runId" in event.body && event.body.runId === runId ? [event] : [],
    );

    const [discovered] = ofType(events, "intent-discovered");
    expect(discovered?.intent.instructions?.map((file) => file.path)).toEqual(["AGENTS.md"]);
    expect(discovered?.intent.instructions?.[0]?.text).toContain(RULE);

    const sent = world.fakeModel.requests.slice(before).map((request) => request.body);
    const byStage = {
      plan: [] as unknown[],
      act: [] as unknown[],
      check: [] as unknown[],
      other: [] as unknown[],
    };
    for (const body of sent) byStage[stageOf(body)].push(body);
    for (const stage of ["plan", "act", "check"] as const) {
      expect(byStage[stage].length, `${stage} requests`).toBeGreaterThan(0);
      for (const body of byStage[stage]) {
        expect(textOf(body), `${stage} request`).toContain(RULE);
        // The budget holds: the long file's tail is not sent.
        expect(textOf(body), `${stage} request`).not.toContain("TAIL-NOT-SENT");
      }
    }

    // Compressed (shortened to its budget, with a record a person can see), never dropped.
    const compressions = ofType(events, "context-compressed");
    expect(compressions.length).toBeGreaterThan(0);
    for (const compression of compressions)
      expect(compression.dropped).toContainEqual(
        expect.objectContaining({ item: "instructions", how: "shortened", id: "instructions" }),
      );
  });
});
