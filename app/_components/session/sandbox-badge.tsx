import type { SessionView } from "@/server/domain/session/view";

/**
 * The runtime and image the session's sandbox runs with, from its newest `sandbox-ready` event.
 * gVisor sessions are offline, and the badge says so.
 */
export function SandboxBadge({ view }: { view: SessionView }) {
  const sandbox = Object.values(view.runs)
    .map((run) => run.sandbox)
    .filter((entry) => entry !== null)
    .at(-1);
  if (!sandbox?.runtime) return null;
  const gvisor = sandbox.runtime === "runsc";
  return (
    <span
      className={`badge ${gvisor ? "info" : ""}`}
      data-testid="sandbox-runtime-badge"
      data-runtime={sandbox.runtime}
      title={`Image ${sandbox.image ?? "?"}, runtime ${sandbox.runtime}${gvisor ? ": gVisor, no network" : ""}`}
    >
      {gvisor ? "gVisor · offline" : "runc"}
    </span>
  );
}
