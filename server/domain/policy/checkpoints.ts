import { z } from "zod";
import { CommandPattern } from "@/server/domain/policy/approval-policy";
import { categoryOf } from "@/server/domain/tools/catalogue";

/**
 * Which of the agent's questions go to a person, per project (seed 000's checkpoints, seed 004's
 * approval rules). Stored as JSON on the project; anything unreadable falls back to the strictest
 * policy, never to a looser one.
 */
export const COMMAND_CHECKPOINTS = ["ask-always", "ask-unlisted", "never-ask"] as const;
export const CommandCheckpoint = z.enum(COMMAND_CHECKPOINTS);
export type CommandCheckpoint = z.infer<typeof CommandCheckpoint>;

/**
 * Programs that run without a click under "ask-unlisted": they read, print or wait, nothing else.
 * Never a shell, an interpreter or a package manager; one that writes a file through a redirection
 * still asks (see server/riva/command-gate.ts).
 */
const READ_ONLY_PROGRAMS = [
  "ls",
  "cat",
  "pwd",
  "echo",
  "printf",
  "id",
  "whoami",
  "uname",
  "date",
  "head",
  "tail",
  "wc",
  "grep",
  "true",
  "false",
  "test",
  "stat",
  "file",
  "tree",
  "du",
  "df",
  "sort",
  "uniq",
  "cut",
  "basename",
  "dirname",
  "which",
  "sleep",
  "exit",
  "cd",
];
export const READ_ONLY_COMMANDS: CommandPattern[] = [
  ...READ_ONLY_PROGRAMS.map((program) => ({ program, args: [] })),
  ...["status", "log", "diff", "show", "branch"].map((sub) => ({ program: "git", args: [sub] })),
];

/** Seed 000's judgment questions: the auto checkpoint answers (default), or a person confirms it. */
export const QuestionCheckpoint = z.enum(["auto", "ask"]);
export type QuestionCheckpoint = z.infer<typeof QuestionCheckpoint>;

/**
 * Seed 004's batch pre-approval per tool category, for every run of the project: "write" lets
 * fs.write, fs.edit and fs.delete through without a click, "git-write" git.add, commit, branch and
 * checkout. Protected paths and content that looks like a secret still ask, whatever is chosen.
 */
export const PRE_APPROVABLE_CATEGORIES = ["write", "git-write"] as const;
export const PreApprovableCategory = z.enum(PRE_APPROVABLE_CATEGORIES);
export type PreApprovableCategory = z.infer<typeof PreApprovableCategory>;

/**
 * The category a tool approval's card may pre-approve for the rest of its run: the call's own
 * category, when it is one a person may pre-approve at all (file or git changes; never shell).
 */
export function preApprovableCategoryOf(tool: string): PreApprovableCategory | null {
  const category = categoryOf(tool);
  return category !== null && PreApprovableCategory.safeParse(category).success
    ? (category as PreApprovableCategory)
    : null;
}

/** Advisory QA (seed 001 §2.3) is a project choice: it costs a model call per verified intention. */
export const QA_REVIEW_SETTINGS = ["off", "on"] as const;
export const QaReviewSetting = z.enum(QA_REVIEW_SETTINGS);
export type QaReviewSetting = z.infer<typeof QaReviewSetting>;

export const CheckpointPolicy = z
  .object({
    /** approve_decomposition: ask a person (default) or let the auto checkpoint accept the model's split. */
    decompositions: z.enum(["ask", "auto"]).default("ask"),
    /** Before each command runs: always ask, ask unless every part is allow-listed (default), or never ask. */
    commands: CommandCheckpoint.default("ask-unlisted"),
    allowCommands: z.array(CommandPattern).max(100).default(READ_ONLY_COMMANDS),
    denyCommands: z.array(CommandPattern).max(100).default([]),
    /** judge_action: after each action's result, a person confirms or overrides the auto judgment. */
    judgeAction: QuestionCheckpoint.default("auto"),
    /** verify_integration: at a parent after its children, a person confirms or overrides the check. */
    verifyIntegration: QuestionCheckpoint.default("auto"),
    /** review_reflection: after a miss, a person accepts, edits or turns the reflection into a split. */
    reviewReflection: QuestionCheckpoint.default("auto"),
    /** Tool categories pre-approved for every run of the project (none by default). */
    preApproved: z.array(PreApprovableCategory).max(PRE_APPROVABLE_CATEGORIES.length).default([]),
    /** Seed 001 §2.3: an advisory read-only review after each verified intention and at the root (off by default). */
    qaReview: QaReviewSetting.default("off"),
    /** Whether QA findings are fed (capped) to the next act turn of a sibling or a retried task. */
    qaFeedback: z.boolean().default(false),
    /**
     * A write outside the scope the run works under (a child's approved scope, or the project intent
     * the model selected): refused with the reason (default), or asked of a person. See the README.
     */
    outOfScopeWrites: z.enum(["refuse", "ask"]).default("refuse"),
  })
  .strict();
export type CheckpointPolicy = z.infer<typeof CheckpointPolicy>;
export type CheckpointPolicyInput = z.input<typeof CheckpointPolicy>;

export const DEFAULT_CHECKPOINTS: CheckpointPolicy = CheckpointPolicy.parse({});
export const STRICTEST_CHECKPOINTS: CheckpointPolicy = {
  decompositions: "ask",
  commands: "ask-always",
  allowCommands: [],
  denyCommands: [],
  judgeAction: "ask",
  verifyIntegration: "ask",
  reviewReflection: "ask",
  preApproved: [],
  // A policy that cannot be read spends nothing extra: QA only advises, it never guards anything.
  qaReview: "off",
  qaFeedback: false,
  outOfScopeWrites: "refuse",
};

/** The stored JSON as a policy; unreadable or invalid data gives the strictest policy (fail closed). */
export function readCheckpointPolicy(stored: string | null | undefined): CheckpointPolicy {
  if (!stored) return DEFAULT_CHECKPOINTS;
  try {
    const parsed = CheckpointPolicy.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : STRICTEST_CHECKPOINTS;
  } catch {
    return STRICTEST_CHECKPOINTS;
  }
}
