"use client";

import { type EnvironmentView, setupOutputId } from "@/server/domain/session/fold-environment";
import { EGRESS_MODE_LABELS, type EgressMode } from "@/server/domain/vocabulary/egress";
import { LiveCycleOutput } from "./live-output";

const label = (mode: string) => EGRESS_MODE_LABELS[mode as EgressMode] ?? mode;

const GVISOR_NOTE =
  "Setup ran under runc (a hardened container of its own, with the setup phase's network); its workspace and the project's dependency cache were handed to this sandbox. The agent runs under gVisor, offline. The setup's install scripts ran under runc, not gVisor.";

/**
 * The sandbox's network per phase, the setup command (its live output while it runs, then its
 * outcome) and every connection through the proxy. `setupRunning`: the started setup's run is still
 * going (a setup whose run ended without an outcome is not shown as running).
 */
export function EnvironmentPanel({
  environment,
  setupRunning = false,
}: {
  environment: EnvironmentView | undefined;
  setupRunning?: boolean;
}) {
  if (!environment) return null;
  const { phases, setup, connections } = environment;
  const running = setupRunning ? environment.setupRunning : null;
  if (!phases.setup && !phases.agent && !setup && !running && connections.length === 0) return null;
  return (
    <section className="card" aria-label="Network and setup" data-testid="environment-panel">
      <h2>Network and setup</h2>
      <ul className="list">
        {(["setup", "agent"] as const).map((phase) => {
          const applied = phases[phase];
          if (!applied) return null;
          return (
            <li key={phase} data-testid={`environment-phase-${phase}`}>
              {phase === "setup" ? "Setup phase" : "Agent phase"}: {label(applied.applied)}
              {applied.applied !== applied.requested && ` (asked: ${label(applied.requested)})`}
              {applied.problem && <span className="error"> {applied.problem}</span>}
            </li>
          );
        })}
      </ul>
      {running && (
        <div data-testid="environment-setup-running">
          <p>
            Setup <code>{running.command}</code>: running…
          </p>
          {running.runner === "runc-for-gvisor" && <p className="muted">{GVISOR_NOTE}</p>}
          <LiveCycleOutput cycleId={setupOutputId(running.runId)} />
        </div>
      )}
      {setup && (
        <details open={setup.status !== "ok"} data-testid="environment-setup">
          <summary>
            Setup <code>{setup.command}</code>:{" "}
            {setup.status === "ok"
              ? `done in ${(setup.durationMs / 1000).toFixed(1)} s`
              : setup.status === "skipped"
                ? "skipped"
                : `failed (exit ${setup.exitCode ?? "?"}); the session goes on`}
          </summary>
          {setup.runner === "runc-for-gvisor" && setup.status !== "skipped" && setup.durationMs > 0 && (
            <p className="muted" data-testid="environment-setup-runner">
              {GVISOR_NOTE}
            </p>
          )}
          {setup.reason && <p className="muted">{setup.reason}</p>}
          {setup.unreadableSecrets.length > 0 && (
            <p className="error">Secrets that could not be opened: {setup.unreadableSecrets.join(", ")}</p>
          )}
          {setup.output && <pre className="output">{setup.output}</pre>}
        </details>
      )}
      {connections.length > 0 && (
        <details data-testid="environment-connections">
          <summary>
            Connections: {environment.allowedCount} allowed, {environment.deniedCount} refused
          </summary>
          <ul className="list">
            {[...connections].reverse().map((connection) => (
              <li key={connection.seq}>
                {connection.allowed ? "✓" : "✗"} {connection.method} {connection.host}:{connection.port} (
                {connection.phase})
                {connection.allowed ? ` ${connection.bytesIn} B in, ${connection.bytesOut} B out` : ""}
                {connection.advice && <span className="muted"> — {connection.advice}</span>}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
