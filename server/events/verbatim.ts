import { z } from "zod";
import { EventBody } from "@/server/domain/events/schema";

/**
 * Which event types a stored payload can be sent as it is, without parsing it again. The store
 * writes each payload as its schema's output, so parsing it again changes nothing, unless the schema
 * fills something in that an older version did not have: a default, a transform, a trimmed string.
 * Types whose schema has none of these anywhere are sent verbatim (the replay sends 10 000 events at
 * once, and parsing and writing them again was a third of its server time); the others are parsed,
 * so an old event gets today's defaults. Anything this walk does not recognise counts as filling in.
 *
 * The walk uses zod 4's public surface only: a schema's `type` and `def.checks`, the classic
 * classes' accessors (`shape`, `unwrap()`, `element`, `options`, `keyType`…) and `instanceof` on
 * the exported check class `z.core.$ZodCheckOverwrite` (what `.trim()`, `.toLowerCase()` and
 * `.overwrite()` add).
 */
/** Schemas that return what they were given once it has passed them (string formats are "string"). */
const LEAVES = new Set(["string", "number", "int", "boolean", "literal", "enum", "null", "unknown", "any"]);

export const VERBATIM_TYPES: ReadonlySet<string> = new Set(
  EventBody.options.filter((option) => !fillsIn(option)).map((option) => option.shape.type.value),
);

/** Does parsing with this schema ever change a value that already passed it (see above)? */
export function fillsIn(schema: z.core.$ZodType): boolean {
  if (!(schema instanceof z.ZodType)) return true;
  if (schema.def.checks?.some((check) => check instanceof z.core.$ZodCheckOverwrite)) return true;
  if (schema instanceof z.ZodObject) {
    const catchall = schema.def.catchall;
    return Object.values(schema.shape).some(fillsIn) || (catchall ? fillsIn(catchall) : false);
  }
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodReadonly)
    return fillsIn(schema.unwrap());
  if (schema instanceof z.ZodArray) return fillsIn(schema.element);
  if (schema instanceof z.ZodUnion) return schema.options.some(fillsIn);
  if (schema instanceof z.ZodRecord) return fillsIn(schema.keyType) || fillsIn(schema.valueType);
  if (schema instanceof z.ZodTuple)
    return schema.def.items.some(fillsIn) || (schema.def.rest ? fillsIn(schema.def.rest) : false);
  return !LEAVES.has(schema.type);
}
