import { randomUUID } from "node:crypto";
import type { EventBody } from "@/server/events/schema";
import { ChildProposal } from "@/server/events/schema";
import type { UserMode } from "@/server/events/vocabulary";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { UserFacingError } from "./errors";
import type { OrchestratorDeps } from "./ports";
import { RunDriver } from "./run-driver";

interface Actor {
  userId: string;
  name: string;
}

/**
 * Starts, stops and resumes runs, and turns a person's answer into events. One driver per running
 * run; approvals wake the driver that waits on them.
 */
export class Orchestrator {
  private readonly active = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private readonly approvalWaiters = new Map<string, Set<() => void>>();

  constructor(
    private readonly deps: OrchestratorDeps,
    private readonly db: PrismaClient,
  ) {}

  get model() {
    return this.deps.model;
  }

  async startRun(input: {
    sessionId: string;
    task: string;
    mode: UserMode;
    actor: Actor;
  }): Promise<{ runId: string }> {
    const task = input.task.trim();
    if (task.length === 0) throw new UserFacingError("Type a task for the agent first.", "BAD_REQUEST");
    const running = await this.db.run.findFirst({ where: { sessionId: input.sessionId, status: "RUNNING" } });
    if (running) {
      throw new UserFacingError(
        "A run is already in progress in this session: stop it or wait for it to end.",
        "CONFLICT",
      );
    }
    const runId = randomUUID();
    const model = this.deps.model;
    await this.deps.store.append(input.sessionId, [
      { type: "message-posted", messageId: randomUUID(), runId, role: "user", text: task },
      {
        type: "run-started",
        runId,
        task,
        mode: input.mode,
        model: { id: model.id, label: model.label, offline: model.offline },
      },
      {
        type: "intention-created",
        runId,
        intentionId: randomUUID(),
        parentId: null,
        what: task,
        acceptance: "every part of the task is done and its checks pass",
        depth: 0,
        position: 0,
      },
    ]);
    this.ensureDriving(input.sessionId, runId);
    return { runId };
  }

  async decide(input: {
    sessionId: string;
    approvalId: string;
    decision: "approved" | "rejected";
    reason: string | null;
    /** Children as edited by the person; when absent, the proposal is approved as it was. */
    children?: ChildProposal[];
    actor: Actor;
  }): Promise<void> {
    const approval = await this.db.approval.findFirst({
      where: { id: input.approvalId, sessionId: input.sessionId },
    });
    if (!approval) throw new UserFacingError("That approval does not exist.", "NOT_FOUND");
    if (approval.status !== "PENDING") {
      throw new UserFacingError(
        `That approval was already answered (${approval.status.toLowerCase()}).`,
        "CONFLICT",
      );
    }
    const events: EventBody[] = [
      {
        type: "approval-decided",
        runId: approval.runId,
        approvalId: approval.id,
        decision: input.decision,
        decidedBy: input.actor,
        reason: input.reason,
      },
    ];
    if (input.decision === "approved") {
      const parent = await this.db.intention.findUniqueOrThrow({ where: { id: approval.intentionId } });
      const proposed = ChildProposal.array().parse(
        (JSON.parse(approval.payload) as { children: unknown }).children,
      );
      const children = input.children ?? proposed;
      if (children.length < 1 || children.length > 5) {
        throw new UserFacingError("A decomposition needs between 1 and 5 children.", "BAD_REQUEST");
      }
      children.forEach((child, position) => {
        events.push({
          type: "intention-created",
          runId: approval.runId,
          intentionId: randomUUID(),
          parentId: parent.id,
          what: child.what,
          acceptance: child.acceptance,
          depth: parent.depth + 1,
          position,
        });
      });
    }
    await this.deps.store.append(input.sessionId, events);
    this.wake(approval.id);
    this.ensureDriving(input.sessionId, approval.runId);
  }

  async stop(sessionId: string, runId: string): Promise<void> {
    const run = await this.db.run.findFirst({ where: { id: runId, sessionId } });
    if (!run) throw new UserFacingError("That run does not exist.", "NOT_FOUND");
    if (run.status !== "RUNNING") return;
    const active = this.active.get(runId);
    if (active) {
      active.controller.abort();
      await active.done;
      return;
    }
    // No driver (for example it crashed): a fresh one sees the abort at once and records the stop.
    const controller = new AbortController();
    controller.abort();
    await new RunDriver(this.deps, sessionId, runId, (id, signal) => this.waitForApproval(id, signal)).drive(
      controller.signal,
    );
  }

  /** Picks up every run that was going when the server stopped. Pending approvals stay pending. */
  async resumeInterrupted(): Promise<number> {
    const runs = await this.db.run.findMany({
      where: { status: "RUNNING" },
      select: { id: true, sessionId: true },
    });
    for (const run of runs) this.ensureDriving(run.sessionId, run.id);
    return runs.length;
  }

  /** Resolves when every driver has finished (used by tests and graceful shutdown). */
  async idle(): Promise<void> {
    while (this.active.size > 0) await Promise.all([...this.active.values()].map((entry) => entry.done));
  }

  private ensureDriving(sessionId: string, runId: string): void {
    if (this.active.has(runId)) return;
    const controller = new AbortController();
    const driver = new RunDriver(this.deps, sessionId, runId, (id, signal) =>
      this.waitForApproval(id, signal),
    );
    const done = driver.drive(controller.signal).finally(() => this.active.delete(runId));
    this.active.set(runId, { controller, done });
  }

  private waitForApproval(approvalId: string, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const waiters = this.approvalWaiters.get(approvalId) ?? new Set();
      const done = () => {
        waiters.delete(done);
        if (waiters.size === 0) this.approvalWaiters.delete(approvalId);
        signal.removeEventListener("abort", done);
        resolve();
      };
      waiters.add(done);
      this.approvalWaiters.set(approvalId, waiters);
      signal.addEventListener("abort", done, { once: true });
      // The answer may have landed between the driver's last read and this registration.
      void this.db.approval
        .findUnique({ where: { id: approvalId }, select: { status: true } })
        .then((row) => {
          if (row?.status !== "PENDING") done();
        }, done);
    });
  }

  private wake(approvalId: string): void {
    for (const waiter of [...(this.approvalWaiters.get(approvalId) ?? [])]) waiter();
  }
}
