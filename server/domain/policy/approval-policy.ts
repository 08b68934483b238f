import { z } from "zod";

/**
 * What a project (and a run) has decided in advance: commands always allowed or always denied,
 * tool categories that pass without a click, and scopes approved together with a decomposition.
 * Schemas are strict, so a misspelt key (`denyComands`) makes the policy invalid, and the gate asks,
 * instead of silently dropping a deny list.
 */

/** A program and an optional argument prefix: `{ program: "npm", args: ["test"] }` is `npm test …`. */
export const CommandPattern = z
  .object({
    program: z.string().regex(/^[^\s/]+$/, "a bare program name, without a path or spaces"),
    args: z.array(z.string().min(1)).default([]),
  })
  .strict();
export type CommandPattern = z.infer<typeof CommandPattern>;

export const CHECK_STATUSES = ["green", "red", "unknown"] as const;
export const CheckStatus = z.enum(CHECK_STATUSES);
export type CheckStatus = z.infer<typeof CheckStatus>;

/** owned_scope globs approved together with a decomposition, and the check that guards them. */
export const ApprovedScope = z
  .object({
    ownedScope: z.array(z.string().min(1)).min(1),
    checkId: z.string().min(1),
    /** The check's last result; a red check means writes there need a person again. */
    checkStatus: CheckStatus,
  })
  .strict();
export type ApprovedScope = z.infer<typeof ApprovedScope>;

export const ApprovalPolicy = z
  .object({
    allowCommands: z.array(CommandPattern).default([]),
    denyCommands: z.array(CommandPattern).default([]),
    approvedScopes: z.array(ApprovedScope).default([]),
    /** Whether a write in an approved scope whose check has not run yet passes without a click. */
    approveWhenCheckUnknown: z.boolean().default(false),
  })
  .strict();
export type ApprovalPolicy = z.infer<typeof ApprovalPolicy>;
export type ApprovalPolicyInput = z.input<typeof ApprovalPolicy>;
