"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { describeError, useTRPC } from "../../_trpc/client";
import { FilesPanel } from "../editor/files-panel";
import { NotFound } from "../not-found";
import { TerminalPanel } from "../terminal/terminal-panel";
import { ApprovalCard } from "./approval-card";
import { CaptureMenu } from "./capture-menu";
import { ChatPanel } from "./chat-panel";
import { EnvironmentPanel } from "./environment-panel";
import { IntentionTree } from "./intention-tree";
import { hasRunningCycle, LiveOutputProvider, useCommandOutput } from "./live-output";
import { ContextRestoreProvider } from "./node-context";
import { PhaseLabel } from "./phase-label";
import { RunDelivery } from "./qa-reports";
import { RunPreApprovals } from "./run-pre-approvals";
import { SandboxBadge } from "./sandbox-badge";
import { SandboxInfo } from "./sandbox-info";
import { RunSpend } from "./spend";
import { RunStatusBadge } from "./status-badge";
import { TraceExport } from "./trace-export";
import { useSessionEvents } from "./use-session-events";
import { WorkPanel } from "./work-panel";

export function SessionView({ sessionId }: { sessionId: string }) {
  const trpc = useTRPC();
  const session = useQuery(trpc.session.getById.queryOptions({ sessionId }));
  const { view, connection, error } = useSessionEvents(sessionId);
  const liveOutputs = useCommandOutput(sessionId, hasRunningCycle(view));
  const stop = useMutation(trpc.run.stop.mutationOptions());

  if (session.error) return <NotFound what="Session" error={session.error} />;
  if (!session.data) return <p className="muted">Loading session…</p>;

  const currentRunId = view.runOrder.at(-1);
  const currentRun = currentRunId ? view.runs[currentRunId] : undefined;
  const pendingApprovals = Object.values(view.approvals).filter((approval) => approval.status === "PENDING");

  return (
    <div className="stack">
      <nav className="breadcrumbs">
        <Link href="/projects">Projects</Link> /{" "}
        <Link href={`/projects/${session.data.project.id}`}>{session.data.project.name}</Link> /{" "}
        <span>{session.data.title}</span>
      </nav>
      <div className="session-bar" data-testid="session-bar">
        {currentRun && <RunStatusBadge run={currentRun} view={view} />}
        {currentRun && <PhaseLabel view={view} runId={currentRun.id} />}
        {currentRun && <RunSpend run={currentRun} />}
        <SandboxBadge view={view} />
        {currentRun && (
          <RunPreApprovals
            sessionId={sessionId}
            run={currentRun}
            canGrant={session.data.permissions.approve}
          />
        )}
        {currentRun && currentRun.route?.route !== "answer" && <RunDelivery run={currentRun} />}
        {pendingApprovals.length > 0 && (
          <span className="pill warn" data-testid="approvals-count" title="Press A to approve, R to reject">
            {pendingApprovals.length} waiting for you
          </span>
        )}
        {currentRun?.reason && (
          <span className="run-reason" data-testid="run-reason">
            {currentRun.reason}
          </span>
        )}
        <span className="muted small">branch {session.data.branch}</span>
        {currentRun?.model.offline && (
          <span className="pill warn" data-testid="offline-notice">
            Built-in offline model: heuristics, no model service
          </span>
        )}
        <span className={`connection ${connection}`} data-testid="connection" data-state={connection}>
          {connection === "live" ? "live" : connection}
        </span>
        {currentRun?.status === "RUNNING" && (
          <button
            type="button"
            className="secondary"
            disabled={stop.isPending}
            onClick={() => stop.mutate({ sessionId, runId: currentRun.id })}
            data-testid="stop-run"
          >
            {stop.isPending ? "Stopping…" : "Stop"}
          </button>
        )}
        <CaptureMenu sessionId={sessionId} />
        <TraceExport sessionId={sessionId} />
        <Link
          href={`/projects/${session.data.project.id}/sessions/${sessionId}/replay`}
          data-testid="open-replay"
        >
          Replay
        </Link>
      </div>
      {error && (
        <p role="alert" className="error">
          Live updates failed: {error}
        </p>
      )}
      {stop.error && (
        <p role="alert" className="error">
          {describeError(stop.error)}
        </p>
      )}
      <div className="session-grid">
        <div className="stack">
          <ChatPanel
            sessionId={sessionId}
            projectId={session.data.project.id}
            view={view}
            running={currentRun?.status === "RUNNING"}
          />
          <WorkPanel sessionId={sessionId} work={view.work} running={currentRun?.status === "RUNNING"} />
          <LiveOutputProvider value={liveOutputs}>
            <EnvironmentPanel
              environment={view.environment}
              setupRunning={
                view.environment?.setupRunning
                  ? view.runs[view.environment.setupRunning.runId]?.status === "RUNNING"
                  : false
              }
            />
          </LiveOutputProvider>
        </div>
        <div className="stack">
          {pendingApprovals.map((approval, index) => (
            <ApprovalCard
              key={approval.id}
              sessionId={sessionId}
              approval={approval}
              view={view}
              shortcuts={index === 0}
              canAnswer={session.data.permissions.approve}
            />
          ))}
          <section className="card" aria-label="Intention tree">
            <h2>Intentions</h2>
            {view.runOrder.length === 0 && <p className="muted">Waiting for the first event…</p>}
            <ContextRestoreProvider value={{ sessionId, canRestore: session.data.permissions.approve }}>
              <LiveOutputProvider value={liveOutputs}>
                {[...view.runOrder].reverse().map((runId) => {
                  const run = view.runs[runId];
                  return run?.rootId ? <IntentionTree key={runId} view={view} rootId={run.rootId} /> : null;
                })}
              </LiveOutputProvider>
            </ContextRestoreProvider>
          </section>
          <SandboxInfo
            run={[...view.runOrder]
              .reverse()
              .map((id) => view.runs[id])
              .find((run) => run?.sandboxInfo)}
          />
        </div>
      </div>
      <TerminalPanel
        sessionId={sessionId}
        canType={session.data.permissions.terminal}
        openInLog={view.terminal}
      />
      <FilesPanel
        sessionId={sessionId}
        canEdit={session.data.permissions.edit}
        running={currentRun?.status === "RUNNING"}
        workspaceVersion={workspaceVersion(view)}
      />
    </div>
  );
}

/**
 * Changes when the workspace may have changed: a run started or ended, a cycle ran, or someone saved,
 * created, renamed or deleted a file from the Files card (on any page).
 */
function workspaceVersion(view: ReturnType<typeof useSessionEvents>["view"]): string {
  let cycles = 0;
  for (const intention of Object.values(view.intentions)) cycles += intention.cycles.length;
  const runs = view.runOrder.map((runId) => view.runs[runId]?.status ?? "").join(",");
  return `${runs}:${cycles}:${view.personFileChanges}`;
}
