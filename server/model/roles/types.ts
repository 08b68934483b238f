import { z } from "zod";
import type { RequestContext } from "@/server/model/request-check";
import { TestPath } from "@/server/model/understanding-tools";

/**
 * Full mode's helper roles (seed 002): the Librarian ranks the files an intention needs, the Critic
 * reviews the Artisan's change before it is proposed to a person, and the optional Chaos role writes
 * one adversarial test. Each answers with one tool whose input is parsed here; nothing they say
 * changes a status by itself — the engine decides what to do with it.
 */

const path = z.string().trim().min(1).max(500);

export const RankFilesInput = z.object({
  files: z
    .array(z.object({ path, why: z.string().trim().max(300).default("") }))
    .max(20)
    .describe("The files the work needs, most relevant first (at most 8 are read)."),
  summary: z.string().trim().max(1_000).default(""),
});
export type Ranking = z.infer<typeof RankFilesInput>;

export const SubmitReviewInput = z.object({
  verdict: z.enum(["approve", "revise"]),
  issues: z.array(z.string().trim().min(1).max(500)).max(10).default([]),
  summary: z.string().trim().max(1_000).default(""),
});
export type Review = z.infer<typeof SubmitReviewInput>;

export const ProposeAdversarialTestInput = z.object({
  path: TestPath,
  content: z.string().min(1).max(20_000),
  command: z.string().trim().min(1).max(500),
  attack: z.string().trim().max(500).default(""),
});
export type AdversarialTest = z.infer<typeof ProposeAdversarialTestInput>;

export const ROLE_TOOL_DESCRIPTIONS = {
  rank_files: [
    "Rank the workspace files the intention's work needs, most relevant first, each with one line on",
    "why. Only paths from the listing. The engine reads the first few for the Artisan.",
  ].join(" "),
  submit_review: [
    "Review the proposed change before anyone is asked to approve it. `approve` when it does what the",
    "intention asks without breaking what its acceptance protects; `revise` with concrete issues",
    "(what is wrong, where) when it does not. The Artisan gets your issues on its next attempt.",
  ].join(" "),
  propose_adversarial_test: [
    "Write one adversarial test for the intention: the edge cases and hostile inputs a quick fix would",
    "miss. `path`: a new test file; `content`: its whole text; `command`: the command that runs only",
    "that test and exits non-zero when it fails; `attack`: what it tries, in one sentence.",
  ].join(" "),
} as const;

interface RoleInput {
  /** The run's whole task. */
  task: string;
  what: string;
  acceptance: string;
  request?: RequestContext;
}

export interface LibrarianInput extends RoleInput {
  /** Workspace paths from a listing (capped by the engine). */
  files: readonly string[];
  /** What simple mode already tried ("PRIOR ATTEMPTS"), capped; empty on a first attempt. */
  priorAttempts: string;
}

export interface CriticInput extends RoleInput {
  /** The Artisan's thought and call, described for a person (`fs.edit src/a.ts`). */
  thought: string;
  action: string;
  /** The change itself: a unified diff for a write or an edit, the path for a delete. */
  change: string;
}

export interface ChaosInput extends RoleInput {
  /** The project's test framework and command when discovery found one. */
  framework: string | null;
  testCommand: string | null;
}
