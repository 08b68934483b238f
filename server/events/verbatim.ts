import type { z } from "zod";
import { EventBody } from "@/server/domain/events/schema";

/**
 * Which event types a stored payload can be sent as it is, without parsing it again. The store
 * writes each payload as its schema's output, so parsing it again changes nothing, unless the schema
 * fills something in that an older version did not have: a default, a transform, a trimmed string.
 * Types whose schema has none of these anywhere are sent verbatim (the replay sends 10 000 events at
 * once, and parsing and writing them again was a third of its server time); the others are parsed,
 * so an old event gets today's defaults. Anything this walk does not recognise counts as filling in.
 */
/** Schemas that return what they were given once it has passed them. */
const LEAVES = new Set(["string", "number", "int", "boolean", "literal", "enum", "null", "unknown", "any"]);

export const VERBATIM_TYPES: ReadonlySet<string> = new Set(
  EventBody.options.filter((option) => !fillsIn(option as z.ZodType)).map(typeOf),
);

function typeOf(option: unknown): string {
  return String((option as z.ZodObject).shape.type.value);
}

type Def = {
  type: string;
  checks?: { _zod: { def: { check: string } } }[];
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
};

/** Does parsing with this schema ever change a value that already passed it (see above)? */
export function fillsIn(schema: z.ZodType): boolean {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  if (def.checks?.some((check) => check._zod.def.check === "overwrite")) return true;
  switch (def.type) {
    case "object":
      return Object.values(def.shape ?? {}).some(fillsIn) || (def.catchall ? fillsIn(def.catchall) : false);
    case "optional":
    case "nullable":
    case "readonly":
      return def.innerType ? fillsIn(def.innerType) : true;
    case "array":
      return def.element ? fillsIn(def.element) : true;
    case "union":
      return (def.options ?? []).some(fillsIn);
    case "record":
      return (def.keyType ? fillsIn(def.keyType) : true) || (def.valueType ? fillsIn(def.valueType) : true);
    case "tuple":
      return (def.items ?? []).some(fillsIn) || (def.rest ? fillsIn(def.rest) : false);
    default:
      return !LEAVES.has(def.type);
  }
}
