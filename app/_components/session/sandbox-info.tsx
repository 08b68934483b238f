import type { RunView } from "@/server/domain/session/view";

/**
 * The run's sandbox: its toolchain versions and the limits it runs with (`sandbox-described`).
 * The session page and the replay show the same line.
 */
export function SandboxInfo({ run }: { run: RunView | undefined }) {
  const info = run?.sandboxInfo;
  if (!info) return null;
  const found = info.toolchains.filter((tool) => tool.version !== null);
  const missing = info.toolchains.filter((tool) => tool.version === null).map((tool) => tool.name);
  const limits = info.resources;
  return (
    <section className="card sandbox-info" aria-label="Sandbox" data-testid="sandbox-info">
      <h2>Sandbox</h2>
      <p className="small" data-testid="sandbox-toolchains">
        {found.map((tool, index) => (
          <span key={tool.name}>
            {index > 0 && " · "}
            {tool.name} <code>{tool.version}</code>
          </span>
        ))}
      </p>
      {missing.length > 0 && (
        <p className="muted small" data-testid="sandbox-missing">
          Not installed or not fetched yet: {missing.join(", ")}
          {missing.some((name) => name === "pnpm" || name === "yarn")
            ? " (corepack fetches pnpm and yarn on first use, when the network allows it)"
            : ""}
        </p>
      )}
      {limits && (
        <p className="muted small" data-testid="sandbox-resources">
          {limits.cpus} CPU · {limits.memoryMb} MB memory · {limits.pids} processes
          {limits.workspaceMb !== null ? ` · /workspace up to ${limits.workspaceMb} MB` : ""}
        </p>
      )}
    </section>
  );
}
