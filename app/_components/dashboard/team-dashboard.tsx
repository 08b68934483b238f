"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { EVIDENCE_KINDS, EVIDENCE_LABELS } from "@/server/domain/vocabulary/session";
import { describeError, useTRPC } from "../../_trpc/client";
import { CostByMemberChart, RunsOverTimeChart } from "./charts";
import { decimal, duration, percent, usd } from "./format";

/** A team's dashboard: what the agent did, what it cost, what it achieved — all from the event logs. */
export function TeamDashboard({ teamId }: { teamId?: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const teams = useQuery(trpc.team.list.queryOptions());
  const query = useQuery({ ...trpc.dashboard.team.queryOptions({ teamId }), refetchInterval: 30_000 });
  if (query.isPending) return <p className="muted">Loading the dashboard…</p>;
  if (query.error)
    return (
      <p className="error" role="alert">
        {describeError(query.error)}
      </p>
    );
  const { team, metrics: m } = query.data;

  return (
    <div className="stack" data-testid="dashboard">
      <nav className="breadcrumbs">
        <Link href="/projects">Projects</Link> / Dashboard
      </nav>
      <div className="row">
        <h1>{team.name}</h1>
        {teams.data && teams.data.length > 1 && (
          <label>
            Team
            <select
              value={team.id}
              onChange={(event) => router.push(`/dashboard?team=${encodeURIComponent(event.target.value)}`)}
              data-testid="dashboard-team"
            >
              {teams.data.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.name}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {m.runs.total === 0 && (
        <p className="muted" data-testid="dashboard-empty">
          No runs yet. Open a project and give the agent a task: its runs, costs and approvals show up here.
        </p>
      )}
      <section className="dash-figures" aria-label="Key figures">
        <Figure id="runs-total" label="Runs" value={String(m.runs.total)}>
          {m.runs.verified} verified · {m.runs.failed} failed · {m.runs.stopped} stopped · {m.runs.running}{" "}
          running{m.answers > 0 ? ` · ${m.answers} chat answers not counted` : ""}
        </Figure>
        <Figure id="success-rate" label="Success rate" value={percent(m.successRate)}>
          verified over ended runs
        </Figure>
        <Figure
          id="cycles-per-verified"
          label="Cycles per verified intention"
          value={decimal(m.cyclesPerVerifiedIntention)}
        >
          {m.intentions.verified} intentions verified, {m.intentions.failed} failed
        </Figure>
        <Figure
          id="verified-by-evidence"
          label="Verified, by evidence"
          value={String(m.intentions.byEvidence["red-to-green"])}
        >
          {EVIDENCE_KINDS.map((kind) => `${m.intentions.byEvidence[kind]} ${EVIDENCE_LABELS[kind]}`).join(
            " · ",
          )}
          {m.intentions.byEvidence.unrecorded > 0
            ? ` · ${m.intentions.byEvidence.unrecorded} from before evidence kinds`
            : ""}
        </Figure>
        <Figure id="cost-total" label="Model cost" value={usd(m.costUsd)}>
          {m.tokens.in.toLocaleString("en")} tokens in · {m.tokens.out.toLocaleString("en")} out
        </Figure>
        <Figure
          id="cost-per-verified"
          label="Cost per verified intention"
          value={usd(m.costPerVerifiedIntention)}
        />
        <Figure id="approvals-asked" label="Approvals asked" value={String(m.approvals.asked)}>
          {m.approvals.approved} approved · {m.approvals.rejected} rejected · {m.approvals.pending} waiting
        </Figure>
        <Figure id="auto-share" label="Auto-approved" value={percent(m.approvals.autoShare)}>
          {m.approvals.auto} let through by policy
        </Figure>
        <Figure
          id="approval-wait"
          label="Waiting for a person (median)"
          value={duration(m.approvals.medianWaitMs)}
        >
          mean {duration(m.approvals.meanWaitMs)}
        </Figure>
        <Figure
          id="unchecked-lines"
          label="AI lines merged without a passing check"
          value={String(m.mergedAiLines.withoutPassingCheck)}
        >
          of {m.mergedAiLines.total} AI-written lines merged
        </Figure>
      </section>
      <div className="dash-charts">
        <section className="card">
          <h2>Runs over the last 30 days</h2>
          <RunsOverTimeChart days={m.runsByDay} />
        </section>
        <section className="card">
          <h2>Cost per member</h2>
          <CostByMemberChart members={m.costByMember} />
        </section>
      </div>
      <section className="card" aria-labelledby="failure-reasons">
        <h2 id="failure-reasons">Top failure reasons</h2>
        {m.topFailureReasons.length === 0 ? (
          <p className="muted">No failed runs.</p>
        ) : (
          <ol className="list" data-testid="failure-reasons">
            {m.topFailureReasons.map((r) => (
              <li key={r.reason}>
                <span>{r.reason}</span> <span className="badge danger">{r.count}</span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

function Figure(props: { id: string; label: string; value: string; children?: React.ReactNode }) {
  return (
    <div className="card dash-figure" data-testid={`dash-${props.id}`}>
      <div className="muted small">{props.label}</div>
      <div className="dash-value" data-testid={`dash-${props.id}-value`}>
        {props.value}
      </div>
      {props.children && <div className="muted small">{props.children}</div>}
    </div>
  );
}
