"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { RouterOutputs } from "@/app/_trpc/router-types";
import { usd } from "./format";

type TeamMetrics = RouterOutputs["dashboard"]["team"]["metrics"];
type DayRuns = TeamMetrics["runsByDay"][number];
type MemberCost = TeamMetrics["costByMember"][number];

/** Colours follow the status badges (see globals.css), so a verified run is the same green everywhere. */
const STATUS_COLOURS = {
  verified: "var(--ok)",
  failed: "var(--danger)",
  stopped: "var(--warn)",
  running: "var(--info)",
};

/** Runs per day, stacked by how they ended; the same figures as a table for screen readers. */
export function RunsOverTimeChart({ days }: { days: DayRuns[] }) {
  const total = days.reduce((sum, d) => sum + d.verified + d.failed + d.stopped + d.running, 0);
  return (
    <figure className="dash-chart" data-testid="chart-runs">
      <div role="img" aria-label={`Runs per day over ${days.length} days, ${total} in all`}>
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={days.map((d) => ({ ...d, day: d.day.slice(5) }))}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="day" fontSize={11} interval="preserveStartEnd" />
            <YAxis allowDecimals={false} fontSize={11} width={28} />
            <Tooltip />
            <Legend />
            {(Object.keys(STATUS_COLOURS) as (keyof typeof STATUS_COLOURS)[]).map((status) => (
              <Bar key={status} dataKey={status} stackId="runs" fill={STATUS_COLOURS[status]} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <details>
        <summary className="small muted">Show as a table</summary>
        <table className="dash-table">
          <thead>
            <tr>
              <th>Day</th>
              <th>Verified</th>
              <th>Failed</th>
              <th>Stopped</th>
              <th>Running</th>
            </tr>
          </thead>
          <tbody>
            {days
              .filter((d) => d.verified + d.failed + d.stopped + d.running > 0)
              .map((d) => (
                <tr key={d.day}>
                  <td>{d.day}</td>
                  <td>{d.verified}</td>
                  <td>{d.failed}</td>
                  <td>{d.stopped}</td>
                  <td>{d.running}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/** Model spend per member (runs charged to whoever gave the task), with the table behind it. */
export function CostByMemberChart({ members }: { members: MemberCost[] }) {
  const priced = members.some((m) => m.costUsd > 0);
  return (
    <figure className="dash-chart" data-testid="chart-cost">
      {!priced && (
        <p className="muted small" data-testid="cost-unpriced">
          No spend recorded: the offline model is free, and a model without a price in ARBOR_MODEL_CONFIG
          costs nothing here. Tokens are still counted.
        </p>
      )}
      <div role="img" aria-label={`Model cost per member, ${members.length} members`} hidden={!priced}>
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={members} layout="vertical">
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" fontSize={11} tickFormatter={(v: number) => usd(v)} />
            <YAxis type="category" dataKey="name" fontSize={11} width={110} />
            <Tooltip formatter={(v) => usd(Number(v))} />
            <Bar dataKey="costUsd" name="cost" fill="var(--accent)" />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <table className="dash-table" data-testid="cost-by-member">
        <thead>
          <tr>
            <th>Member</th>
            <th>Runs</th>
            <th>Tokens</th>
            <th>Cost</th>
          </tr>
        </thead>
        <tbody>
          {members.map((m) => (
            <tr key={m.userId} data-testid={`member-cost-${m.userId}`}>
              <td>{m.name}</td>
              <td>{m.runs}</td>
              <td>{m.tokens.toLocaleString("en")}</td>
              <td>{usd(m.costUsd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
