"use client";

import type { EnvironmentView } from "@/server/events/fold-environment";
import { EGRESS_MODE_LABELS, type EgressMode } from "@/server/sandbox/egress/policy";

const label = (mode: string) => EGRESS_MODE_LABELS[mode as EgressMode] ?? mode;

/** The sandbox's network per phase, the setup command's outcome and every connection through the proxy. */
export function EnvironmentPanel({ environment }: { environment: EnvironmentView | undefined }) {
  if (!environment) return null;
  const { phases, setup, connections } = environment;
  if (!phases.setup && !phases.agent && !setup && connections.length === 0) return null;
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
      {setup && (
        <details open={setup.status === "failed"} data-testid="environment-setup">
          <summary>
            Setup <code>{setup.command}</code>:{" "}
            {setup.status === "ok"
              ? `done in ${(setup.durationMs / 1000).toFixed(1)} s`
              : setup.status === "skipped"
                ? "skipped"
                : `failed (exit ${setup.exitCode ?? "?"}); the session goes on`}
          </summary>
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
