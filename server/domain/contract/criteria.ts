import { z } from "zod";
import { TestResults } from "./test-results";

/**
 * Seed 000's acceptance criteria: each a testable condition with a verifier that runs in the sandbox
 * and returns evidence. An intention's contract is the list of criteria its acceptance names.
 */
const path = z.string().min(1).max(1_000);

export const Criterion = z.discriminatedUnion("kind", [
  /** The file (or directory) exists. */
  z.object({ kind: z.literal("FILE_EXISTS"), path }),
  /** The file contains the text (fixed string, not a regular expression). */
  z.object({ kind: z.literal("FILE_CONTAINS"), path, text: z.string().min(1).max(2_000) }),
  /** The command exits 0: a test suite, a build, any check the user named. */
  z.object({ kind: z.literal("TESTS_PASS"), command: z.string().min(1).max(2_000) }),
  /** A function, method or class of that name is defined (in `path`, or anywhere in the workspace). */
  z.object({
    kind: z.literal("FUNCTION_EXISTS"),
    name: z.string().regex(/^[A-Za-z_$][\w$]*$/),
    path: path.nullable(),
  }),
  /** A test written before the work (test-first) exists at `path` and `command` passes. */
  z.object({ kind: z.literal("GENERATED_TEST_PASSES"), path, command: z.string().min(1).max(2_000) }),
  /** Every file changed on the session's branch lies in one of the allowed layers (globs). */
  z.object({ kind: z.literal("LAYER_APPROPRIATE"), allowed: z.array(z.string().min(1)).min(1).max(20) }),
]);
export type Criterion = z.infer<typeof Criterion>;

export const CriterionResult = z.object({
  criterion: Criterion,
  passed: z.boolean(),
  /** What the verifier saw, capped: the reader must be able to check the verdict. */
  evidence: z.string().max(4_000),
  /**
   * A test command's counts and failing tests, read from the runner's report or summary lines
   * (absent: not a test command, no counts found, or a result recorded before counts existed).
   */
  tests: TestResults.optional(),
  /** The exact command that ran, when Arbor added a reporter to the criterion's command. */
  ranCommand: z.string().max(4_000).optional(),
  /**
   * Set when the check could not run at all (a missing program, exit 126/127, a time limit, a sandbox
   * error, a gate that refused it): then `passed` is false, and the result is neither green nor red.
   */
  couldNotRun: z.string().max(1_000).optional(),
  /**
   * Set when the action's own command was the check (byte-identical, compared by binding hash): the
   * hash of the command that ran, so a reader can see the check was not run a second time.
   */
  ranAs: z.string().max(100).optional(),
});
export type CriterionResult = z.infer<typeof CriterionResult>;

export function describeCriterion(criterion: Criterion): string {
  switch (criterion.kind) {
    case "FILE_EXISTS":
      return `file ${criterion.path} exists`;
    case "FILE_CONTAINS":
      return `${criterion.path} contains "${criterion.text}"`;
    case "TESTS_PASS":
      return `\`${criterion.command}\` exits 0`;
    case "FUNCTION_EXISTS":
      return `function ${criterion.name} exists${criterion.path ? ` in ${criterion.path}` : ""}`;
    case "GENERATED_TEST_PASSES":
      return `generated test ${criterion.path} passes with \`${criterion.command}\``;
    case "LAYER_APPROPRIATE":
      return `changes stay in ${criterion.allowed.join(", ")}`;
  }
}
