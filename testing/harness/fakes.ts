import pino from "pino";
import type { ExecResult } from "@/server/domain/sandbox-port";
import { commandAction, type NextAction, type Plan } from "@/server/model/actions";
import type { ModelCallRecord } from "@/server/model/call-record";
import type { AgentModel, PlanInput } from "@/server/model/types";
import type { CreateSandboxOptions, Sandbox, SandboxProvider } from "@/server/sandbox/types";

/** Test doubles for the engine's ports. Only for unit tests of pure code: no Docker, no HTTP. */

export const silentLogger = pino({ level: "silent" });

const call = (stage: ModelCallRecord["stage"]): ModelCallRecord => ({
  stage,
  modelId: "scripted",
  offline: true,
  tokensIn: 10,
  tokensOut: 5,
  latencyMs: 1,
});

export interface ModelScript {
  plan(input: PlanInput, count: number): Plan | Error;
  /** A tool call, or `{ thought, command }` for a shell command (most engine tests script commands). */
  nextAction(
    input: { what: string; previousAttempts: string[] },
    count: number,
  ): NextAction | { thought: string; command: string } | Error;
}

/** A model whose every answer comes from a script; an Error from the script is thrown as the call's failure. */
export function scriptedModel(script: ModelScript): AgentModel & { calls: { plan: number; act: number } } {
  const calls = { plan: 0, act: 0 };
  return {
    id: "scripted",
    label: "Scripted model",
    offline: true,
    calls,
    async plan(input) {
      const answer = script.plan(input, calls.plan++);
      if (answer instanceof Error) throw answer;
      return { plan: answer, call: call("decompose") };
    },
    async nextAction(input) {
      const answer = script.nextAction(input, calls.act++);
      if (answer instanceof Error) throw answer;
      const action = "command" in answer ? commandAction(answer.thought, answer.command) : answer;
      return { action, call: call("act") };
    },
  };
}

/** Intent discovery's fs.list and fs.read (the realpath is the scope guard's) of the workspace. */
const DISCOVERY_COMMANDS = [
  "if [ ! -e /workspace ]",
  "realpath -m -- /workspace/package.json",
  "if [ -d /workspace/package.json ]",
];

export type ExecScript = (command: string, count: number) => Partial<ExecResult> | Error;

/** A sandbox provider whose commands are answered by a script; records every command it was given. */
export class FakeSandboxProvider implements SandboxProvider {
  readonly commands: string[] = [];

  /** The commands actions ran, without the workspace listing that intent discovery makes. */
  get actions(): string[] {
    return this.commands.filter(
      (command) => !DISCOVERY_COMMANDS.some((prefix) => command.startsWith(prefix)),
    );
  }
  private readonly boxes = new Map<string, Sandbox>();

  constructor(
    private readonly script: ExecScript,
    private readonly createError: Error | null = null,
  ) {}

  async create(options: CreateSandboxOptions): Promise<Sandbox> {
    if (this.createError) throw this.createError;
    const existing = this.boxes.get(options.sessionId);
    if (existing) return existing;
    const box: Sandbox = {
      id: `fake-${options.sessionId}`,
      sessionId: options.sessionId,
      containerName: `arbor-session-${options.sessionId}`,
      exec: async (command) => {
        const answer = this.script(command, this.commands.length);
        this.commands.push(command);
        if (answer instanceof Error) throw answer;
        return {
          exitCode: 0,
          stdout: "",
          stderr: "",
          timedOut: false,
          truncated: false,
          durationMs: 1,
          ...answer,
        };
      },
      readFile: async () => "",
      writeFile: async () => undefined,
      dispose: async () => {
        this.boxes.delete(options.sessionId);
      },
    };
    this.boxes.set(options.sessionId, box);
    return box;
  }

  async get(sessionId: string): Promise<Sandbox | null> {
    return this.boxes.get(sessionId) ?? null;
  }

  async sweepOrphans() {
    return { removed: [], kept: [...this.boxes.keys()] };
  }

  async ping(): Promise<void> {}
}
