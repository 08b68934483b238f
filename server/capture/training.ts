import type { StoredEvent } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import type { CycleView, IntentionView, SessionView } from "@/server/domain/session/view";
import { keepHeadAndTail } from "@/server/domain/text/cap";
import type { ActionType, Judgment } from "@/server/domain/vocabulary/session";

/**
 * Training data from a session (seed 000: "export sessions in a format suitable for fine-tuning"):
 * one JSON line per judged cycle, holding what the agent knew when it acted, what it did, what came
 * back and how that was judged. The context is the same fresh, capped context a model call gets
 * (Ralph): task, intention, acceptance and a short summary of earlier attempts, never the whole log.
 */

export const OUTPUT_CAP = 2_000;
export const PREVIOUS_ATTEMPTS_CAP = 3;
const ATTEMPT_TEXT_CAP = 300;

export interface PreviousAttempt {
  action: { type: ActionType; content: string };
  exit_code: number | null;
  judgment: Judgment | null;
  reflection: string | null;
}

export interface TrainingExample {
  context: {
    task: string;
    intention: string;
    acceptance: string;
    depth: number;
    previous_attempts: PreviousAttempt[];
  };
  action: { type: ActionType; content: string };
  result: { exit_code: number | null; output: string };
  judgment: Judgment;
  reflection: string | null;
}

function actionOf(cycle: CycleView, cap: number) {
  return { type: cycle.action.type, content: keepHeadAndTail(cycle.action.content, cap) };
}

/** What came back, as the judge saw it: the error when the action could not run, else its output. */
function resultText(cycle: CycleView): string {
  return cycle.error ?? cycle.output ?? "";
}

function examplesOf(task: string, intention: IntentionView): TrainingExample[] {
  const examples: TrainingExample[] = [];
  intention.cycles.forEach((cycle, position) => {
    if (cycle.judgment === null) return;
    const previous = intention.cycles.slice(Math.max(0, position - PREVIOUS_ATTEMPTS_CAP), position);
    examples.push({
      context: {
        task,
        intention: intention.what,
        acceptance: intention.acceptance,
        depth: intention.depth,
        previous_attempts: previous.map((attempt) => ({
          action: actionOf(attempt, ATTEMPT_TEXT_CAP),
          exit_code: attempt.exitCode,
          judgment: attempt.judgment,
          reflection:
            attempt.reflection === null ? null : keepHeadAndTail(attempt.reflection, ATTEMPT_TEXT_CAP),
        })),
      },
      action: { type: cycle.action.type, content: cycle.action.content },
      result: { exit_code: cycle.exitCode, output: keepHeadAndTail(resultText(cycle), OUTPUT_CAP) },
      judgment: cycle.judgment,
      reflection: cycle.reflection,
    });
  });
  return examples;
}

/** Depth-first in tree order, so examples read in the order the agent worked. */
function walk(view: SessionView, intention: IntentionView, visit: (intention: IntentionView) => void): void {
  visit(intention);
  for (const id of intention.childIds) {
    const child = view.intentions[id];
    if (child) walk(view, child, visit);
  }
}

export function trainingExampleList(events: readonly StoredEvent[]): TrainingExample[] {
  const view = foldEvents(events);
  const examples: TrainingExample[] = [];
  for (const runId of view.runOrder) {
    const run = view.runs[runId];
    const root = run?.rootId ? view.intentions[run.rootId] : undefined;
    if (run && root) walk(view, root, (intention) => examples.push(...examplesOf(run.task, intention)));
  }
  return examples;
}

/** JSONL: one example per line, ending with a newline; empty when no cycle was judged. */
export function trainingExamples(events: readonly StoredEvent[]): string {
  return trainingExampleList(events)
    .map((example) => `${JSON.stringify(example)}\n`)
    .join("");
}
