"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  RUNTIME_LABELS,
  SANDBOX_RUNTIMES,
  type SandboxRuntime,
} from "@/server/domain/vocabulary/sandbox-runtime";
import { describeError, useTRPC } from "../_trpc/client";

/** The build log as text: the engine's colour codes removed. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with ESC.
const plain = (log: string) => log.replace(/\u001b\[[0-9;]*m/g, "");

/**
 * The project's sandbox: its container runtime (hardened runc, or gVisor for code nobody trusts) and
 * its own image from `.arbor/Dockerfile` on the default branch, with the newest build's log. The log
 * is re-read every second while a build runs.
 */
export function SandboxSettings({ projectId, canChange }: { projectId: string; canChange: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery({
    ...trpc.projectSandbox.get.queryOptions({ projectId }),
    refetchInterval: (query) => (query.state.data?.building ? 1_000 : false),
  });
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.projectSandbox.get.queryKey({ projectId }) });
  const setRuntime = useMutation(trpc.projectSandbox.setRuntime.mutationOptions({ onSuccess: refresh }));
  const rebuild = useMutation(trpc.projectSandbox.rebuildImage.mutationOptions({ onSuccess: refresh }));
  const data = settings.data;
  if (!data) return null;
  const newest = data.builds[0];
  return (
    <section className="card" aria-label="Sandbox" data-testid="sandbox-settings">
      <h2>Sandbox</h2>
      <div className="row">
        <label>
          Runtime
          <select
            value={data.runtime}
            disabled={!canChange || setRuntime.isPending}
            onChange={(event) =>
              setRuntime.mutate({ projectId, runtime: event.target.value as SandboxRuntime })
            }
            data-testid="sandbox-runtime"
          >
            {SANDBOX_RUNTIMES.map((runtime) => (
              <option key={runtime} value={runtime}>
                {RUNTIME_LABELS[runtime]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="muted small">
        gVisor puts its own kernel between the project's code and the server, for repositories nobody on the
        team trusts. A gVisor session is offline: it has no network at all. It is slower: a new sandbox takes
        about 1.5× as long to start, and starting processes costs about 15× as much. Applies to new sessions.
        {data.gvisorAvailable === false &&
          " This server's Docker engine has no gVisor runtime yet (scripts/ensure-runsc.sh)."}
      </p>
      {setRuntime.error && (
        <p className="error" role="alert" data-testid="sandbox-runtime-error">
          {describeError(setRuntime.error)}
        </p>
      )}
      <h3>Image</h3>
      <p className="small" data-testid="sandbox-image">
        New sessions run <code>{data.projectImage ?? data.serverImage}</code>
        {data.projectImage ? " (built from this project's Dockerfile)" : " (the server's image)"}.
      </p>
      <p className="muted small">
        Bring your own with <code>.arbor/Dockerfile</code> (or the Dockerfile your{" "}
        <code>.devcontainer/devcontainer.json</code> names) on the default branch, starting with{" "}
        <code>ARG ARBOR_BASE</code> and <code>{`FROM \${ARBOR_BASE}`}</code>. Only merged files are built; the
        sandbox's hardening applies whatever the Dockerfile says.
      </p>
      {newest && (
        <div data-testid="sandbox-image-build" data-status={newest.status}>
          <p className="small">
            Newest build: <strong>{newest.status}</strong> — {newest.dockerfile} at{" "}
            <code>{newest.commit.slice(0, 12)}</code>
          </p>
          {newest.status === "failed" && newest.error && (
            <p className="error" role="alert" data-testid="sandbox-image-error">
              {newest.error}
              {data.projectImage ? ` Sessions keep using ${data.projectImage}.` : ""}
            </p>
          )}
          <details open={data.building || newest.status === "failed"}>
            <summary>Build log</summary>
            <pre className="log" data-testid="sandbox-image-log">
              {plain(data.newestLog)}
            </pre>
          </details>
        </div>
      )}
      <button
        type="button"
        onClick={() => rebuild.mutate({ projectId })}
        disabled={rebuild.isPending || data.building}
        data-testid="sandbox-image-rebuild"
      >
        {data.building ? "Building…" : "Build the image now"}
      </button>
      {rebuild.error && <p className="error">{describeError(rebuild.error)}</p>}
    </section>
  );
}
