import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { EventStore } from "@/server/events/store";
import type { Orchestrator } from "@/server/orchestrator/orchestrator";
import { type OrchestratorWorld, orchestratorWorld } from "./orchestrator-world";

const git = promisify(execFile);

/** A pending approval as the database holds it; its payload is the card's JSON. */
export type PendingApproval = { id: string; kind: string; payload: string };

/** The command and thought an approval card shows. */
export const payloadOf = (pending: PendingApproval) =>
  JSON.parse(pending.payload) as { command?: string; thought?: string };

/**
 * A project that asks before every command (checkpoints "ask-always"), with every real part: SQLite,
 * Docker, the AI SDK over HTTP to the fake model server (scenario "default"). `files` are committed
 * to the project's main branch before the suite; each test then starts `task` with `start()` and
 * answers the cards with `answerUntilEnded`. Call it at the top level of a test file: it registers
 * its hooks (the world's, then the commit).
 */
export function askEveryCommandProject(options: {
  repoName: string;
  /** Path (relative to the repository root) → content. */
  files: Record<string, string>;
  task: string;
}) {
  const world: OrchestratorWorld = orchestratorWorld({ repoName: options.repoName, fakeModel: true });
  const { actor } = world;

  beforeAll(async () => {
    const work = await mkdtemp(path.join(tmpdir(), `arbor-${options.repoName.toLowerCase()}-`));
    try {
      await git("git", ["clone", "-q", world.repoPath, work]);
      for (const [file, content] of Object.entries(options.files)) {
        await mkdir(path.dirname(path.join(work, file)), { recursive: true });
        await writeFile(path.join(work, file), content);
      }
      await git("git", ["add", "."], { cwd: work });
      await git("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "project"], {
        cwd: work,
      });
      await git("git", ["push", "-q", "origin", "HEAD:main"], { cwd: work });
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  /**
   * Answers every card as `answer` says (rejections give the reason "not before the work") until the
   * run ends (about 60 s at most), then waits for the orchestrator; the cards seen, in order.
   */
  async function answerUntilEnded(
    orch: Orchestrator,
    runId: string,
    answer: (pending: PendingApproval) => boolean,
  ): Promise<PendingApproval[]> {
    const seen: PendingApproval[] = [];
    for (let i = 0; i < 1_200; i++) {
      const run = await world.db.run.findUniqueOrThrow({ where: { id: runId } });
      if (run.status !== "RUNNING") break;
      const pending = await world.db.approval.findFirst({
        where: { sessionId: world.sessionId, status: "PENDING" },
      });
      if (pending) {
        seen.push(pending);
        const approved = answer(pending);
        await orch.decide({
          sessionId: world.sessionId,
          approvalId: pending.id,
          decision: approved ? "approved" : "rejected",
          reason: approved ? null : "not before the work",
          actor,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await orch.idle();
    return seen;
  }

  /**
   * Starts the task in agent mode on this test's session, under "ask before every command", with the
   * fake model's `scenario`.
   */
  async function start(scenario = "default") {
    const store = new EventStore(world.db);
    const orch = world.orchestrator({
      log: store,
      model: world.scriptedModel(scenario),
      runningRuns: async () => [],
      checkpointsOf: async () => CheckpointPolicy.parse({ commands: "ask-always" }),
    });
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: options.task,
      mode: "agent",
      actor,
    });
    return { store, orch, runId };
  }

  return { world, answerUntilEnded, start };
}
