import { z } from "zod";
import { CONTEXT_ITEM_KINDS } from "@/server/domain/vocabulary/context";

/**
 * A person asked for an item a compression left out to be sent again (the Restore button on an
 * intention). The next requests of that intention include it in full under "Restored by <name>", and
 * it is no longer listed as dropped. `restored.sha256` is the item as recorded when it was restored.
 */
export const ContextRestoredBody = z.object({
  type: z.literal("context-restored"),
  runId: z.string(),
  intentionId: z.string(),
  /**
   * The item as the compression record named it. Nested like the record's own items, so a session
   * import keeps the two consistent with each other (neither is renamed).
   */
  restored: z.object({
    item: z.enum(CONTEXT_ITEM_KINDS),
    id: z.string().min(1).max(200),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    label: z.string().max(300).nullable().default(null),
  }),
  restoredBy: z.object({ userId: z.string(), name: z.string() }),
});

/**
 * This family's event types (what a person restored into a compressed request).
 * The union (schema.ts) is every family's tuple; a new type of this family goes here.
 */
export const CONTEXT_EVENTS = [ContextRestoredBody] as const;
