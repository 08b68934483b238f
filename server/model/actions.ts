/** What a model decides: a plan for an intention, or the next action of a cycle. */

/** A proposed child intention: a smaller goal plus how we will know it is done. */
export interface ChildProposal {
  what: string;
  acceptance: string;
  /** owned_scope globs for the child's writes (relative to /workspace); none: its writes ask. */
  ownedScope?: string[];
}

/**
 * The answer to "can this intention be verified directly?" (seed 000's `can_verify_directly`): either
 * work it through action cycles, or split it into 2–5 children that are each easier to verify.
 */
export type Plan =
  | { kind: "direct"; thought: string }
  | { kind: "decompose"; thought: string; children: ChildProposal[] }
  /** Only when decomposition was required: the intention is already as small as it gets. */
  | { kind: "atomic"; thought: string };

/**
 * The cycle's action: one call of a registry tool (`fs.write`, `fs.edit`, `shell.exec`, …), with the
 * reasoning shown to the user. `input` is the model's raw arguments: the tool dispatch parses them with
 * the tool's zod schema before anything runs, so nothing here is trusted.
 */
export interface NextAction {
  thought: string;
  tool: string;
  input: Record<string, unknown>;
}

/** The action of running one shell command (what the act step could only do before tool calls). */
export function commandAction(thought: string, command: string): NextAction {
  return { thought, tool: "shell.exec", input: { command } };
}
