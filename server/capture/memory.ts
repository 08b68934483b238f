import type { IntentionView, SessionView } from "@/server/domain/session/view";
import { capEnd } from "@/server/domain/text/cap";

/**
 * Project memory (seed 001's project memory, seed 000's `project_memory.py`): what earlier runs on
 * this project learned, for discovery to read before a new task. It is derived from the event log
 * rather than stored, so it can never disagree with what happened; only VERIFIED runs teach, because
 * a failed run's commands and plans are exactly what should not be repeated blindly.
 */

export type MemoryKind = "test-command" | "command" | "decision";

export interface Memory {
  kind: MemoryKind;
  /** The command that worked, or the intention that was decomposed. */
  summary: string;
  /** The intention the command verified, or the approved children, one per line. */
  detail: string;
  runId: string;
  /** When the run that taught it ended, ISO time; memories are ordered by it, newest first. */
  at: string;
}

export const MEMORY_LIMIT = 50;
const TEXT_CAP = 500;

/**
 * Commands that run a project's tests, for the common toolchains. Anchored at a command boundary so
 * `echo npm test` is not mistaken for running the tests.
 */
const TEST_COMMAND =
  /(?:^|[;&|(]\s*|\bthen\s+)(?:\S+=\S+\s+)*(?:(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?test\b|npx\s+(?:vitest|jest|mocha|playwright\s+test)\b|(?:vitest|jest|mocha)\b|(?:python3?\s+-m\s+)?pytest\b|python3?\s+-m\s+unittest\b|tox\b|go\s+test\b|cargo\s+(?:test|nextest)\b|make\s+(?:test|check)\b|(?:mvn|\.\/mvnw)\s+(?:\S+\s+)*test\b|(?:gradle|\.\/gradlew)\s+test\b|dotnet\s+test\b|(?:bundle\s+exec\s+)?(?:rspec|rake\s+test)\b|mix\s+test\b|deno\s+test\b|ctest\b|phpunit\b|\S*\/phpunit\b)/;

export function isTestCommand(command: string): boolean {
  return TEST_COMMAND.test(command.trim());
}

function memoriesOfRun(view: SessionView, runId: string, at: string): Memory[] {
  const memories: Memory[] = [];
  const intentions = Object.values(view.intentions).filter((intention) => intention.runId === runId);
  for (const intention of intentions) {
    if (intention.status !== "VERIFIED") continue;
    for (const cycle of intention.cycles) {
      // Only shell commands are remembered as commands (a git tool call is a COMMAND action too).
      const isShell = cycle.action.tool === null || cycle.action.tool === "shell.exec";
      if (cycle.action.type !== "COMMAND" || !isShell || cycle.judgment !== "SUCCESS") continue;
      // Only a command whose own checks passed teaches: a check that failed or could not run after it
      // means the command is not known to do what the intention asked.
      if (!ownChecksPassed(cycle)) continue;
      const command = cycle.action.content.trim();
      memories.push({
        kind: isTestCommand(command) ? "test-command" : "command",
        summary: capEnd(command, TEXT_CAP),
        detail: capEnd(intention.what, TEXT_CAP),
        runId,
        at,
      });
    }
  }
  for (const approval of Object.values(view.approvals)) {
    if (approval.runId !== runId || approval.status !== "APPROVED") continue;
    const parent = view.intentions[approval.intentionId];
    if (!parent) continue;
    memories.push({
      kind: "decision",
      summary: capEnd(parent.what, TEXT_CAP),
      detail: capEnd(childrenOf(view, parent).join("\n"), TEXT_CAP),
      runId,
      at,
    });
  }
  return memories;
}

/** The checks run right after the cycle's command all passed (none failed, none could not run). */
function ownChecksPassed(cycle: IntentionView["cycles"][number]): boolean {
  return (cycle.checks ?? []).every((check) => check.passed && check.couldNotRun === undefined);
}

/** The children as they were created: a person may have edited the proposal before approving it. */
function childrenOf(view: SessionView, parent: IntentionView): string[] {
  return parent.childIds.flatMap((id) => {
    const child = view.intentions[id];
    return child ? [child.what] : [];
  });
}

/**
 * Memories of every VERIFIED run in the given sessions: successful commands (test commands marked
 * apart, since discovery most wants to know how to test the project) and approved decompositions.
 * Deduplicated by kind and text keeping the newest, newest first, at most `limit`.
 */
export function projectMemories(views: readonly SessionView[], limit = MEMORY_LIMIT): Memory[] {
  const all: Memory[] = [];
  for (const view of views) {
    for (const runId of view.runOrder) {
      const run = view.runs[runId];
      if (run?.status !== "VERIFIED") continue;
      all.push(...memoriesOfRun(view, runId, run.endedAt ?? run.startedAt));
    }
  }
  // A stable sort keeps the order within one run (tree creation order) for equal times.
  all.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  const seen = new Set<string>();
  const memories: Memory[] = [];
  for (const memory of all) {
    const key = `${memory.kind}\u0000${memory.summary}\u0000${memory.kind === "decision" ? memory.detail : ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    memories.push(memory);
    if (memories.length >= limit) break;
  }
  return memories;
}
