import { z } from "zod";
import { ProviderId } from "@/server/domain/vocabulary/providers";

/**
 * What a person may override for one run (the highest configuration layer): provider, model and
 * timeout. Not the base URL or the key: those stay with the settings they were saved in, so a run
 * cannot send a stored key somewhere else.
 */
export const RunModelOverrides = z
  .object({
    provider: ProviderId.optional(),
    modelName: z.string().trim().min(1).max(200).optional(),
    timeoutMs: z.number().int().min(1_000).max(600_000).optional(),
    /** The built-in offline model for this run, whatever the settings name (the chat box's picker). */
    offline: z.literal(true).optional(),
  })
  .strict();
export type RunModelOverrides = z.infer<typeof RunModelOverrides>;
