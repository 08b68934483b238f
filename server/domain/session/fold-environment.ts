import type { EventBody } from "@/server/domain/events/schema";

type Body<T extends EventBody["type"]> = Extract<EventBody, { type: T }>;

/** How many connections the view keeps (the newest); the log keeps every one. */
export const CONNECTIONS_KEPT = 200;

export interface EnvironmentView {
  phases: { setup: PhaseView | null; agent: PhaseView | null };
  setup: Omit<Body<"setup-ran">, "type" | "runId"> | null;
  /** The setup command that started and has no outcome yet (its run may have ended without one: a crash). */
  setupRunning: Omit<Body<"setup-started">, "type"> | null;
  connections: (Omit<Body<"egress-connection">, "type"> & { seq: number })[];
  allowedCount: number;
  deniedCount: number;
}

interface PhaseView {
  requested: string;
  applied: string;
  problem: string | null;
  /** While its proxy is down: what the phase had before (given back when the proxy is back). */
  interrupted?: { applied: string; problem: string | null };
}

export function emptyEnvironmentView(): EnvironmentView {
  return {
    phases: { setup: null, agent: null },
    setup: null,
    setupRunning: null,
    connections: [],
    allowedCount: 0,
    deniedCount: 0,
  };
}

export function foldEnvironment(
  view: EnvironmentView,
  body:
    | Body<"egress-phase-set">
    | Body<"setup-started">
    | Body<"setup-ran">
    | Body<"egress-connection">
    | Body<"egress-interrupted">,
  seq = 0,
): void {
  switch (body.type) {
    case "egress-phase-set":
      view.phases[body.phase] = { requested: body.requested, applied: body.applied, problem: body.problem };
      return;
    case "egress-interrupted":
      foldInterruption(view, body);
      return;
    case "setup-started": {
      const { type: _type, ...rest } = body;
      view.setupRunning = rest;
      return;
    }
    case "setup-ran": {
      const { type: _type, runId: _runId, ...rest } = body;
      view.setup = rest;
      view.setupRunning = null;
      return;
    }
    case "egress-connection": {
      const { type: _type, ...rest } = body;
      view.connections.push({ ...rest, seq });
      if (view.connections.length > CONNECTIONS_KEPT)
        view.connections.splice(0, view.connections.length - CONNECTIONS_KEPT);
      if (body.allowed) view.allowedCount++;
      else view.deniedCount++;
    }
  }
}

/** Down: the phase shows Off with the message; back: what it had before the proxy stopped. */
function foldInterruption(view: EnvironmentView, body: Body<"egress-interrupted">): void {
  const phase = view.phases[body.phase];
  if (!phase) return;
  if (body.state === "down") {
    const before = phase.interrupted ?? { applied: phase.applied, problem: phase.problem };
    view.phases[body.phase] = { ...phase, applied: "off", problem: body.message, interrupted: before };
  } else if (phase.interrupted) {
    const { interrupted, ...rest } = phase;
    view.phases[body.phase] = { ...rest, ...interrupted };
  }
}

/** The live output stream's key for a run's setup command (server/events/command-output.ts). */
export function setupOutputId(runId: string): string {
  return `setup-${runId}`;
}
