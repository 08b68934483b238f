import { z } from "zod";

/**
 * Zod errors as text, two ways: for the model (and log lines) `z.prettifyError`'s listing, one
 * "✖ message → at path" per issue; for people fixing a file, a structured list of `{ path, message }`
 * that a form or a table can show next to the place to fix.
 */

/** The arguments a tool call gave did not parse: the text the model reads to correct its call. */
export function argumentsMismatch(toolName: string, error: z.ZodError): string {
  return `the arguments of ${toolName} do not match its schema:\n${z.prettifyError(error)}`;
}

/** One problem a person can act on: where (`tiers[2].model`) and what. */
export interface PathProblem {
  path: string;
  message: string;
}

/** `tiers[2].model`, `prices["openai/gpt-4o"].inputPer1M`; `root` for the whole value. */
export function pathText(path: readonly PropertyKey[], root = "(root)"): string {
  return path.length === 0 ? root : z.core.toDotPath(path);
}

/** Every issue of `error` with its path; an unknown key is one problem per key, so each points at its line. */
export function issuesOf(error: z.ZodError, root = "(root)"): PathProblem[] {
  return error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ path: pathText([...issue.path, key], root), message: "unknown key" }))
      : [{ path: pathText(issue.path, root), message: issue.message }],
  );
}
