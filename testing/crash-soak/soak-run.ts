import type { StoredEvent } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import type { SessionView } from "@/server/domain/session/view";

/**
 * The crash soak's scripted run and its checks, shared by the driver (the process that is killed)
 * and the test that kills it. Pure: the checks read the log and the projection rows they are given.
 */

/** Run k's task: two writes that take a while (a kill lands inside them) and a read of their result. */
export function soakTask(k: number): string {
  return [
    `run \`sleep 1 && echo r${k}-a >> soak.txt\``,
    `then run \`sleep 6 && echo r${k}-b >> soak.txt\``,
    "then run `cat soak.txt`",
  ].join(" and ");
}

/** The name the scripted person answers with: the only answers that may re-run a cut-off command. */
export const SOAK_PERSON = { userId: "soak-person", name: "Soak person" };

export function isWrite(command: string): boolean {
  return command.includes(">>");
}

/** Problems with the log as stored: sequence numbers dense from 1, no event recorded twice. */
export function logProblems(events: StoredEvent[]): string[] {
  const problems: string[] = [];
  events.forEach((event, index) => {
    if (event.seq !== index + 1) problems.push(`seq ${event.seq} at position ${index + 1}`);
  });
  const once = new Map<string, number>();
  for (const { body } of events) {
    const key =
      body.type === "cycle-started" || body.type === "cycle-result" || body.type === "cycle-judged"
        ? `${body.type}:${body.cycleId}`
        : body.type === "approval-requested" || body.type === "approval-decided"
          ? `${body.type}:${body.approvalId}`
          : body.type === "intention-created"
            ? `${body.type}:${body.intentionId}`
            : body.type === "run-started" || body.type === "run-ended"
              ? `${body.type}:${body.runId}`
              : null;
    if (key) once.set(key, (once.get(key) ?? 0) + 1);
  }
  for (const [key, count] of once) if (count > 1) problems.push(`${key} recorded ${count} times`);
  return problems;
}

export interface ProjectionRows {
  runs: { id: string; status: string }[];
  intentions: { id: string; status: string }[];
  approvals: { id: string; status: string }[];
  cycles: { id: string; judgment: string | null }[];
}

/** The projection tables against the fold of the log: the same runs, intentions, approvals and cycles. */
export function projectionProblems(view: SessionView, rows: ProjectionRows): string[] {
  const problems: string[] = [];
  const compare = (what: string, folded: Map<string, string | null>, stored: Map<string, string | null>) => {
    for (const [id, value] of folded)
      if (stored.get(id) !== value)
        problems.push(`${what} ${id}: fold says ${value}, table says ${stored.get(id)}`);
    for (const id of stored.keys()) if (!folded.has(id)) problems.push(`${what} ${id} is in the table only`);
  };
  const intentions = Object.values(view.intentions);
  compare(
    "run",
    new Map(Object.values(view.runs).map((run) => [run.id, run.status])),
    new Map(rows.runs.map((run) => [run.id, run.status])),
  );
  compare(
    "intention",
    new Map(intentions.map((intention) => [intention.id, intention.status])),
    new Map(rows.intentions.map((row) => [row.id, row.status])),
  );
  compare(
    "approval",
    new Map(Object.values(view.approvals).map((approval) => [approval.id, approval.status])),
    new Map(rows.approvals.map((row) => [row.id, row.status])),
  );
  compare(
    "cycle",
    new Map(intentions.flatMap((intention) => intention.cycles.map((cycle) => [cycle.id, cycle.judgment]))),
    new Map(rows.cycles.map((row) => [row.id, row.judgment])),
  );
  return problems;
}

/**
 * Every start of a writing command beyond its first needs a person's answer: a cut-off write never
 * runs again on its own. Returns the problems and how many times writes ran again with an answer.
 */
export function rerunProblems(view: SessionView): {
  problems: string[];
  personReruns: number;
  readReruns: number;
} {
  const problems: string[] = [];
  let personReruns = 0;
  let readReruns = 0;
  for (const intention of Object.values(view.intentions)) {
    const byCommand = new Map<string, typeof intention.cycles>();
    for (const cycle of intention.cycles) {
      if (cycle.action.type !== "COMMAND") continue;
      byCommand.set(cycle.action.content, [...(byCommand.get(cycle.action.content) ?? []), cycle]);
    }
    for (const [command, cycles] of byCommand) {
      const unanswered = cycles.filter((cycle) => {
        const approval = cycle.approvalId ? view.approvals[cycle.approvalId] : undefined;
        return !(approval?.status === "APPROVED" && approval.decidedBy === SOAK_PERSON.name);
      });
      if (isWrite(command)) {
        personReruns += cycles.length - unanswered.length;
        if (unanswered.length > 1)
          problems.push(`\`${command}\` started ${unanswered.length} times without a person's answer`);
      } else readReruns += cycles.length - 1;
    }
  }
  return { problems, personReruns, readReruns };
}

/**
 * The file the writes append to, against the log: each line appears once per run of its command that
 * finished, plus at most once per cut-off run whose process had already ended by itself (the line may
 * or may not have been written before the kill). A cut-off run whose process was found and ended adds
 * nothing: had it been left running, its line would appear on top.
 */
export function lineProblems(
  view: SessionView,
  file: string,
): { problems: string[]; leftoversEnded: number } {
  const problems: string[] = [];
  let leftoversEnded = 0;
  const lines = file.split("\n").filter((line) => line.trim() !== "");
  for (const intention of Object.values(view.intentions)) {
    const writes = intention.cycles.filter(
      (cycle) => cycle.action.type === "COMMAND" && isWrite(cycle.action.content),
    );
    const command = writes[0]?.action.content;
    if (!command) continue;
    const marker = /echo (\S+) >>/.exec(command)?.[1] ?? "";
    const finished = writes.filter((cycle) => cycle.exitCode === 0).length;
    const ended = writes.filter((cycle) => cycle.output?.includes("and was ended")).length;
    const unknown = writes.filter((cycle) => cycle.output?.includes("no longer running")).length;
    leftoversEnded += ended;
    const count = lines.filter((line) => line.trim() === marker).length;
    if (count < finished || count > finished + unknown)
      problems.push(
        `${marker} appears ${count} times; ${finished} runs finished, ${unknown} cut off after their process ended`,
      );
  }
  return { problems, leftoversEnded };
}

/** The outcome of a run as a comparable shape: its status and its intentions' statuses by step. */
export function outcomeOf(view: SessionView, runId: string, k: number): string {
  const run = view.runs[runId];
  const steps = Object.values(view.intentions)
    .filter((intention) => intention.runId === runId)
    .sort((a, b) => a.depth - b.depth || a.position - b.position)
    .map(
      (intention) => `${intention.depth}:${intention.what.replaceAll(`r${k}-`, "r?-")}=${intention.status}`,
    );
  return [`run=${run?.status}`, ...steps].join("\n");
}

export function fold(events: StoredEvent[]): SessionView {
  return foldEvents(events);
}
