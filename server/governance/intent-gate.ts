/**
 * The intent gate's words, exactly as seed 003 gives them: the model is told these texts in its system
 * prompt and sees them as tool results, so they must not drift.
 */

/** The intent a run has selected with `select_active_intent`, as far as the gates need it. */
export interface ActiveIntent {
  /** `INT-001` */
  id: string;
  /** owned_scope globs from .orchestration/active_intents.yaml, relative to /workspace. */
  ownedScope: readonly string[];
}

export const INTENT_REQUIRED_ERROR = "Error: You must call select_active_intent before writing files.";

export function scopeViolationError(intentId: string, relativePath: string): string {
  return `Scope Violation: ${intentId} is not authorized to edit ${relativePath}`;
}
