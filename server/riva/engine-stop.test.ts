import { describe, expect, it } from "vitest";
import type { EventOf, StoredEvent } from "@/server/domain/events/schema";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type { ExecOptions, ExecResult } from "@/server/domain/sandbox-port";
import { emptySessionView, foldEvents } from "@/server/domain/session/fold";
import { MemoryEventLog } from "@/server/events/log";
import type { Sandbox, SandboxProvider } from "@/server/sandbox/types";
import { backticked, splitPlan } from "@/testing/harness/engine-scripts";
import { scriptedModel } from "@/testing/harness/fakes";
import { testOrchestrator } from "@/testing/harness/orchestrator-deps";

/**
 * Stop while a command runs, through the real orchestrator and engine over an in-memory log. The
 * sandbox double stands in for Docker: a command "hangs" until its signal aborts (the real kill is
 * proven in sandbox-abort.integration.test.ts), or ignores the signal when told to.
 */

const SESSION = "s-stop";
const ADA = { userId: "u-ada", name: "Ada" };

class HangingSandboxes implements SandboxProvider {
  readonly commands: string[] = [];
  private box: Sandbox | null = null;
  constructor(private readonly honoursSignal: boolean) {}

  async create(): Promise<Sandbox> {
    this.box ??= {
      id: "hang",
      sessionId: SESSION,
      containerName: `arbor-session-${SESSION}`,
      exec: (command, options) => this.exec(command, options),
      readFile: async () => "",
      writeFile: async () => undefined,
      dispose: async () => undefined,
    };
    return this.box;
  }
  async get() {
    return this.box;
  }
  async sweepOrphans() {
    return { removed: [], kept: [] };
  }
  async ping() {}

  private exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    this.commands.push(command);
    const result = (extra: Partial<ExecResult>): ExecResult => ({
      exitCode: 0,
      stdout: "",
      stderr: "",
      timedOut: false,
      truncated: false,
      durationMs: 1,
      ...extra,
    });
    if (!command.startsWith("sleep")) return Promise.resolve(result({}));
    return new Promise((resolve) => {
      const signal = options.signal;
      if (this.honoursSignal && signal) {
        signal.addEventListener("abort", () =>
          resolve(result({ exitCode: 137, stdout: "started\n", aborted: true, killedReason: "aborted" })),
        );
      } else {
        // Finishes on its own a little after the stop, as a command that ignores it would.
        signal?.addEventListener("abort", () => setTimeout(() => resolve(result({ stdout: "done\n" })), 20));
      }
    });
  }
}

/** Splits like splitOnAnd, but each child's acceptance is a checkable criterion (a file that exists). */
const withContracts = scriptedModel({
  plan: (input) => {
    const plan = splitPlan(input);
    if (plan.kind !== "decompose") return plan;
    return {
      ...plan,
      children: plan.children.map((child) => ({ ...child, acceptance: "the file `out.txt` exists" })),
    };
  },
  nextAction: (input) => backticked(input.what),
});

function orchestratorWith(sandboxes: SandboxProvider, log: MemoryEventLog) {
  return testOrchestrator({
    log,
    model: withContracts,
    sandboxes,
    commandTimeoutMs: 60_000,
    sandboxImage: "fake",
    checkpointsOf: async () => CheckpointPolicy.parse({ commands: "never-ask", decompositions: "auto" }),
    sleep: async () => undefined,
  });
}

async function untilRunning(sandboxes: HangingSandboxes, command: string) {
  for (let tick = 0; tick < 10_000 && !sandboxes.commands.includes(command); tick++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  expect(sandboxes.commands).toContain(command);
}

function only<T extends StoredEvent["body"]["type"]>(events: StoredEvent[], type: T): EventOf<T>[] {
  return events.map((event) => event.body).filter((body): body is EventOf<T> => body.type === type);
}

describe("Stop while a command runs", () => {
  it("cuts the command, records who cut it, ends the run STOPPED and runs nothing after", async () => {
    const log = new MemoryEventLog();
    const sandboxes = new HangingSandboxes(true);
    const orchestrator = orchestratorWith(sandboxes, log);
    const { runId } = await orchestrator.startRun({
      sessionId: SESSION,
      task: "run `sleep 30`",
      mode: "agent",
      actor: ADA,
    });
    await untilRunning(sandboxes, "sleep 30");
    const ranBefore = sandboxes.commands.length;
    const started = performance.now();
    await orchestrator.stop(SESSION, runId, ADA);
    // The hanging command would take 30 s: a few seconds at most proves Stop cut it, even under load.
    expect(performance.now() - started).toBeLessThan(5_000);

    const events = await log.read(SESSION);
    const view = foldEvents(events, emptySessionView());
    expect(view.runs[runId]).toMatchObject({ status: "STOPPED", reason: "stopped by Ada" });
    expect(only(events, "cycle-result")).toEqual([
      expect.objectContaining({ exitCode: null, output: "started\n", error: "stopped by Ada while running" }),
    ]);
    expect(only(events, "cycle-judged")).toEqual([
      expect.objectContaining({
        judgment: "UNCLEAR",
        judgedBy: "Ada",
        reason: "stopped by Ada while running",
      }),
    ]);
    expect(only(events, "cycle-reflected")).toEqual([]);
    expect(Object.values(view.intentions).map((intention) => intention.status)).toEqual(["FAILED"]);
    expect(sandboxes.commands).toHaveLength(ranBefore);
    await orchestrator.idle();
  });

  it("does not check the contract of a command that finished after the stop", async () => {
    // The first child's contract (`out.txt` exists) would be checked after a normal finish.
    const log = new MemoryEventLog();
    const sandboxes = new HangingSandboxes(false);
    const orchestrator = orchestratorWith(sandboxes, log);
    const { runId } = await orchestrator.startRun({
      sessionId: SESSION,
      task: "run `sleep 1` and then run `echo next`",
      mode: "agent",
      actor: ADA,
    });
    await untilRunning(sandboxes, "sleep 1");
    const ranBefore = sandboxes.commands.length;
    await orchestrator.stop(SESSION, runId, ADA);
    const events = await log.read(SESSION);
    expect(only(events, "run-ended")).toEqual([expect.objectContaining({ status: "STOPPED" })]);
    expect(only(events, "cycle-result")[0]).toMatchObject({ output: "done\n", error: null, exitCode: 0 });
    expect(only(events, "cycle-judged")[0]).toMatchObject({
      judgment: "UNCLEAR",
      reason: "stopped by Ada before its result was checked",
    });
    expect(only(events, "criteria-checked")).toEqual([]);
    expect(sandboxes.commands).toHaveLength(ranBefore);
    expect(sandboxes.commands).not.toContain("echo next");
  });

  it("names 'the user' when the stop does not say who", async () => {
    const log = new MemoryEventLog();
    const sandboxes = new HangingSandboxes(true);
    const orchestrator = orchestratorWith(sandboxes, log);
    const { runId } = await orchestrator.startRun({
      sessionId: SESSION,
      task: "run `sleep 5`",
      mode: "agent",
      actor: ADA,
    });
    await untilRunning(sandboxes, "sleep 5");
    await orchestrator.stop(SESSION, runId);
    const events = await log.read(SESSION);
    expect(only(events, "cycle-result")[0]?.error).toBe("stopped by the user while running");
    expect(only(events, "run-ended")[0]?.reason).toBe("stopped by the user");
  });
});
