import type { AgentModel } from "../types";
import type { Role, TierConfig } from "./schema";

/** Model tiers resolved for one run (see server/settings/tier-models.ts). */
export interface RunTiers {
  config: TierConfig;
  models: AgentModel[];
  /** Per tier, the models of full mode's helper roles that differ from the tier's own (absent: none). */
  roles?: Partial<Record<Role, AgentModel>>[];
}
