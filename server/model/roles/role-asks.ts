import { tool } from "ai";
import type { Ask } from "@/server/model/ask";
import { renderPrompt } from "@/server/model/prompts";
import { answerOf } from "@/server/model/understanding-tools";
import {
  type AdversarialTest,
  type ChaosInput,
  type CriticInput,
  type LibrarianInput,
  ProposeAdversarialTestInput,
  RankFilesInput,
  type Ranking,
  type Review,
  ROLE_TOOL_DESCRIPTIONS,
  SubmitReviewInput,
} from "./types";

/**
 * Full mode's role requests as the AI SDK model sends them: each one answer tool and no workspace
 * tools — the engine gives each role what it needs (the listing, the diff) — with one corrective
 * re-ask like every other request. The stage of each is the stage policy's closest: the Librarian
 * discovers, the Critic verifies, Chaos writes part of the contract.
 */

const MAX_LISTED_FILES = 400;
const NONE = "(none)";

function intentionMessage(input: { what: string; acceptance: string }): string {
  return `Intention: ${input.what}\nAcceptance: ${input.acceptance || "(none given)"}`;
}

export function librarianAsk(input: LibrarianInput, dir?: string): Ask<Ranking> {
  const listed = input.files.slice(0, MAX_LISTED_FILES);
  const more = input.files.length - listed.length;
  const files = listed.length === 0 ? NONE : `${listed.join("\n")}${more > 0 ? `\n… and ${more} more` : ""}`;
  return {
    stage: "discover",
    workspaceTools: [],
    request: input.request,
    instructions: renderPrompt(
      "role-librarian",
      { task: input.task, files, priorAttempts: input.priorAttempts.trim() || NONE },
      { dir },
    ),
    userMessage: intentionMessage(input),
    tools: {
      rank_files: tool({ description: ROLE_TOOL_DESCRIPTIONS.rank_files, inputSchema: RankFilesInput }),
    },
    interpret: (calls, text) => answerOf(calls, text, "rank_files", RankFilesInput),
  };
}

export function criticAsk(input: CriticInput, dir?: string): Ask<Review> {
  return {
    stage: "verify",
    workspaceTools: [],
    request: input.request,
    instructions: renderPrompt("role-critic", { task: input.task }, { dir }),
    userMessage: [
      intentionMessage(input),
      `The Artisan's reason: ${input.thought}`,
      `Proposed action: ${input.action}`,
      `The change:\n${input.change || NONE}`,
    ].join("\n\n"),
    tools: {
      submit_review: tool({
        description: ROLE_TOOL_DESCRIPTIONS.submit_review,
        inputSchema: SubmitReviewInput,
      }),
    },
    interpret: (calls, text) => answerOf(calls, text, "submit_review", SubmitReviewInput),
  };
}

export function chaosAsk(input: ChaosInput, dir?: string): Ask<AdversarialTest> {
  const framework = input.framework ? `${input.framework} (\`${input.testCommand ?? "?"}\`)` : "unknown";
  return {
    stage: "contract",
    workspaceTools: [],
    request: input.request,
    instructions: renderPrompt("role-chaos", { task: input.task, framework }, { dir }),
    userMessage: intentionMessage(input),
    tools: {
      propose_adversarial_test: tool({
        description: ROLE_TOOL_DESCRIPTIONS.propose_adversarial_test,
        inputSchema: ProposeAdversarialTestInput,
      }),
    },
    interpret: (calls, text) =>
      answerOf(calls, text, "propose_adversarial_test", ProposeAdversarialTestInput),
  };
}
