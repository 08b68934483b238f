"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { describeError, useTRPC } from "../../_trpc/client";
import { FilesPanel } from "../editor/files-panel";
import { NotFound } from "../not-found";
import { TerminalPanel } from "../terminal/terminal-panel";
import { ChangesPanel } from "../workspace/changes-panel";
import { NotifyMe } from "../workspace/notify-me";
import { ReplayTab } from "../workspace/replay-tab";
import { RunProgress } from "../workspace/run-progress";
import { SessionSwitcher } from "../workspace/session-switcher";
import { useSessionNotices } from "../workspace/use-session-notices";
import { WorkspaceLayout } from "../workspace/workspace-layout";
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
import { SandboxLost } from "./sandbox-lost";
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

  const currentRunId = view.runOrder.at(-1);
  const currentRun = currentRunId ? view.runs[currentRunId] : undefined;
  const pendingApprovals = Object.values(view.approvals).filter((approval) => approval.status === "PENDING");
  useSessionNotices({
    sessionId,
    title: session.data?.title ?? "Session",
    pending: pendingApprovals,
    running: currentRun?.status === "RUNNING",
  });

  if (session.error) return <NotFound what="Session" error={session.error} />;
  if (!session.data) return <p className="muted">Loading session…</p>;

  const running = currentRun?.status === "RUNNING";
  const project = session.data.project;
  const version = workspaceVersion(view);
  const setupRunning = view.environment?.setupRunning
    ? view.runs[view.environment.setupRunning.runId]?.status === "RUNNING"
    : false;
  // The network and setup card: above the tree while the setup runs (that is the progress to watch),
  // below it afterwards.
  const environment = (
    <LiveOutputProvider value={liveOutputs}>
      <EnvironmentPanel environment={view.environment} setupRunning={setupRunning} />
    </LiveOutputProvider>
  );

  return (
    <WorkspaceLayout
      top={
        <>
          <nav className="breadcrumbs" aria-label="Breadcrumbs">
            <Link href="/projects">Projects</Link> /{" "}
            <Link href={`/projects/${project.id}`} data-testid="workspace-project">
              {project.name}
            </Link>{" "}
            /{" "}
            <SessionSwitcher
              projectId={project.id}
              sessionId={sessionId}
              title={session.data.title}
              runStatus={currentRun?.status}
            />
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
              <span
                className="pill warn"
                data-testid="approvals-count"
                title="Press A to approve, R to reject"
              >
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
            {running && currentRun && (
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
            {stop.error && (
              <span role="alert" className="error small">
                Could not stop the run: {describeError(stop.error)} Try again, or reload the page to see
                whether it ended.
              </span>
            )}
            <CaptureMenu sessionId={sessionId} />
            <TraceExport sessionId={sessionId} />
            <Link href={`/projects/${project.id}/sessions/${sessionId}/replay`} data-testid="open-replay">
              Replay
            </Link>
            <NotifyMe />
          </div>
          {error && (
            <p role="alert" className="error small" data-testid="live-error">
              Live updates failed: {error}. The page keeps trying; reload it if this stays.
            </p>
          )}
        </>
      }
      chat={<ChatPanel sessionId={sessionId} projectId={project.id} view={view} running={running} />}
      pinned={
        pendingApprovals.length > 0 && (
          <section className="pinned-approvals" aria-label="Waiting for you" data-testid="pinned-approvals">
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
          </section>
        )
      }
      tree={
        <>
          <SandboxLost
            sessionId={sessionId}
            host={view.sandboxHost}
            canRestart={session.data.permissions.work}
            running={running}
          />
          <RunProgress view={view} run={currentRun} />
          {setupRunning && environment}
          <section className="card" aria-label="Intention tree">
            <h2>Intentions</h2>
            {view.runOrder.length === 0 && <p className="muted">Waiting for the first event…</p>}
            <NoTreeNote view={view} />
            <ContextRestoreProvider value={{ sessionId, canRestore: session.data.permissions.approve }}>
              <LiveOutputProvider value={liveOutputs}>
                {[...view.runOrder].reverse().map((runId) => {
                  const run = view.runs[runId];
                  return run?.rootId ? <IntentionTree key={runId} view={view} rootId={run.rootId} /> : null;
                })}
              </LiveOutputProvider>
            </ContextRestoreProvider>
          </section>
          {!setupRunning && environment}
          <SandboxInfo
            run={[...view.runOrder]
              .reverse()
              .map((id) => view.runs[id])
              .find((run) => run?.sandboxInfo)}
          />
        </>
      }
      side={(active) => ({
        changes: (
          <>
            <ChangesPanel sessionId={sessionId} visible={active === "changes"} workspaceVersion={version} />
            <WorkPanel sessionId={sessionId} projectId={project.id} work={view.work} running={running} />
          </>
        ),
        files: (
          <FilesPanel
            sessionId={sessionId}
            canEdit={session.data.permissions.edit}
            running={running}
            workspaceVersion={version}
          />
        ),
        terminal: (
          <TerminalPanel
            sessionId={sessionId}
            canType={session.data.permissions.terminal}
            openInLog={view.terminal}
            lostHost={view.sandboxHost?.lost?.host ?? null}
          />
        ),
        replay: (
          <ReplayTab view={view} sessionId={sessionId} projectId={project.id} open={active === "replay"} />
        ),
      })}
    />
  );
}

/**
 * A session whose runs were all answered in the conversation has no tree to show: one line says why,
 * instead of an empty card (issue #17).
 */
function NoTreeNote({ view }: { view: ReturnType<typeof useSessionEvents>["view"] }) {
  const runs = view.runOrder.map((runId) => view.runs[runId]).filter((run) => run !== undefined);
  if (runs.length === 0 || runs.some((run) => run.rootId || run.status === "RUNNING")) return null;
  const chat = runs.every((run) => run.mode === "chat");
  return (
    <p className="muted" data-testid="no-intention-tree">
      {chat
        ? "No intention tree: chat answers in the conversation and changes nothing."
        : "No intention tree: this request was answered without running anything."}
    </p>
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
