import type { Stage } from "@/server/domain/vocabulary/stages";
import type { CorrectionNote } from "./corrections";
import type { Role } from "./tiers/schema";

/** What one model request cost, written to the event log as an "LLM call made" fact. */
export interface ModelCallRecord {
  stage: Stage | "discover";
  modelId: string;
  offline: boolean;
  tokensIn: number;
  tokensOut: number;
  latencyMs: number;
  /** The workspace tools the request offered, by vocabulary name (`shell.exec`, `fs.read`). */
  tools?: string[];
  /** Correction prompts sent with re-asks or retries of this call (seed 001 §10), in order. */
  corrections?: CorrectionNote[];
  /** Full mode's helper role that made the call (absent: the Artisan, or no role). */
  role?: Role;
}
