import { z } from "zod";

/**
 * The project's setup command and where it comes from (issue #20.3). Three places may name one: the
 * project's own command on the Network and setup card, the repository's `.arbor/config.yaml` on the
 * default branch, and the lock files (detected). Whichever is chosen, it never runs before a person
 * approved that exact text (server/setup/environment.ts binds the approval to its hash).
 */

/** The longest setup command accepted, from the card or from the file. */
export const SETUP_COMMAND_MAX_CHARS = 2_000;

const noControlCharacters = (command: string) => !/[\0\r]/.test(command);

/** A setup command as the repository's file names it: one non-empty shell line (or a few), bounded. */
export const SetupCommandText = z
  .string()
  .trim()
  .min(1, "The setup command is empty.")
  .max(SETUP_COMMAND_MAX_CHARS, `The setup command is at most ${SETUP_COMMAND_MAX_CHARS} characters.`)
  .refine(noControlCharacters, "The setup command has control characters.");

/** The card's input: null (or blank) means "not my own", so the file's or the detected one counts. */
export const SetupCommandInput = z
  .string()
  .max(SETUP_COMMAND_MAX_CHARS, `The setup command is at most ${SETUP_COMMAND_MAX_CHARS} characters.`)
  .refine(noControlCharacters, "The setup command has control characters.")
  .nullable();

/**
 * The project's setup command (below the card's own, above the one detected from the lock files). Its
 * secrets stay on the card: a repository file is readable by anyone who can read the repository.
 */
export const RepoSetup = z
  .object({
    command: SetupCommandText,
    secrets: z
      .never({
        error: "setup secrets are set on the project's Network and setup card, never in the repository",
      })
      .optional(),
  })
  .strict();

export type SetupSource = "project" | "repo" | "detected";

/**
 * Card > repository > lock file. The card's command is a choice a person with the settings role made
 * in Arbor for this project, so it beats what the repository says (and lets them replace a file's
 * command they do not want without a commit); the file's is the repository's own statement, so it
 * beats a guess from the lock files. The order decides only what is proposed: approval is separate.
 */
export function chooseSetupCommand(candidates: {
  project: string | null;
  repo: string | null;
  detected: string | null;
}): { command: string; source: SetupSource } | null {
  if (candidates.project) return { command: candidates.project, source: "project" };
  if (candidates.repo) return { command: candidates.repo, source: "repo" };
  if (candidates.detected) return { command: candidates.detected, source: "detected" };
  return null;
}

/** Where a setup command came from, in words (the card, `arbor config list --server`, the session). */
export function setupSourceLabel(source: SetupSource, defaultBranch: string): string {
  switch (source) {
    case "project":
      return "the project's own command, on the Network and setup card";
    case "repo":
      return `from .arbor/config.yaml on ${defaultBranch}`;
    case "detected":
      return "detected from the lock file";
  }
}
