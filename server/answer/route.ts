import { analyzePrompt } from "@/server/domain/intent/prompt-intent";
import type { RunRoute, UserMode } from "@/server/domain/vocabulary/session";

/**
 * The router (issue #3): how a message is handled. It reads the request; it never changes the
 * person's mode (seed 001 §2.1).
 *
 * - Chat mode: always the answer path (read-only tools, a text answer). Nothing is ever changed.
 * - Agent mode: the loop, except for a pure question about the code ("what does `src/app.ts` do?"),
 *   which is answered on the same read-only path, still as an Agent-mode request. "Pure" is strict on
 *   purpose: a question that asks for work ("can you fix the parser?", "could you add a test?") names
 *   a change and goes to the loop, because answering work with words would silently do less than asked.
 */

export interface RouteDecision {
  route: RunRoute;
  kind: string;
  reason: string;
}

/**
 * A question beyond doubt: it ends with "?" or opens with a question word. "do it", "is done when …"
 * or "can be removed" read as questions to the classifier but are instructions in Agent mode.
 */
const PLAINLY_A_QUESTION = /\?\s*$|^\s*(what|why|how|where|which|who|when|explain|describe|tell me)\b/i;

/** Words that ask for work, even inside a question. */
const WORK_WORDS =
  /\b(run|execute|build|install|fix|repair|add|create|write|implement|make|change|update|remove|delete|rename|refactor|generate|commit|edit|move|replace|upgrade|bump|format|lint|test)\b/i;

export function routeRun(mode: UserMode, task: string): RouteDecision {
  const kind = analyzePrompt(task).kind;
  if (mode === "chat") {
    return { route: "answer", kind, reason: "Chat mode: answered with read-only tools, nothing is changed" };
  }
  if (kind === "question" && PLAINLY_A_QUESTION.test(task) && !WORK_WORDS.test(task)) {
    return {
      route: "answer",
      kind,
      reason:
        "Agent mode, and the router reads a question about the code that asks for no change: answered with read-only tools; the mode stays Agent",
    };
  }
  const why = kind === "question" ? "a question that asks for work" : `a ${kind} request`;
  return { route: "loop", kind, reason: `Agent mode, ${why}: worked as an intention tree` };
}
