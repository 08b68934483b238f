import schemaJson from "./agent-trace-record.schema.json";

/**
 * A validator for the subset of JSON Schema (2020-12) that the Agent Trace record schema uses: type,
 * properties, required, additionalProperties, items, enum, pattern, minimum, maximum, maxLength and
 * the uri format. `ajv` is not installed; this lets the tests check records against the spec's own
 * schema file (a verbatim copy of the spec's `trace-record.schema.json`) rather than only our zod
 * mirror of it. An unsupported keyword throws, so the subset cannot silently pass something.
 */

type Schema = { [key: string]: unknown };

export const AGENT_TRACE_JSON_SCHEMA = schemaJson as Schema;

const SUPPORTED = new Set([
  "$schema",
  "$id",
  "title",
  "description",
  "type",
  "properties",
  "required",
  "additionalProperties",
  "propertyNames",
  "items",
  "enum",
  "pattern",
  "minimum",
  "maximum",
  "maxLength",
  "format",
]);

function typeOk(type: string, value: unknown): boolean {
  switch (type) {
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "array":
      return Array.isArray(value);
    case "string":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    default:
      throw new Error(`unsupported type ${type}`);
  }
}

/** Every violation of `schema` by `value`, as `path: message`; empty when it is valid. */
export function validateJsonSchema(
  value: unknown,
  schema: Schema = AGENT_TRACE_JSON_SCHEMA,
  path = "$",
): string[] {
  for (const key of Object.keys(schema))
    if (!SUPPORTED.has(key)) throw new Error(`unsupported keyword ${key}`);
  const errors: string[] = [];
  if (typeof schema.type === "string" && !typeOk(schema.type, value)) return [`${path}: not ${schema.type}`];
  if (Array.isArray(schema.enum) && !schema.enum.includes(value))
    errors.push(`${path}: not one of ${schema.enum}`);
  if (typeof value === "string") {
    if (typeof schema.pattern === "string" && !new RegExp(schema.pattern, "u").test(value))
      errors.push(`${path}: does not match ${schema.pattern}`);
    if (typeof schema.maxLength === "number" && [...value].length > schema.maxLength)
      errors.push(`${path}: longer than ${schema.maxLength}`);
    if (schema.format === "uri" && !URL.canParse(value)) errors.push(`${path}: not a URI`);
  }
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum)
      errors.push(`${path}: below ${schema.minimum}`);
    if (typeof schema.maximum === "number" && value > schema.maximum)
      errors.push(`${path}: above ${schema.maximum}`);
  }
  if (Array.isArray(value) && typeof schema.items === "object" && schema.items !== null) {
    value.forEach((item, index) => {
      errors.push(...validateJsonSchema(item, schema.items as Schema, `${path}[${index}]`));
    });
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const key of (schema.required ?? []) as string[])
      if (!(key in object)) errors.push(`${path}: missing ${key}`);
    for (const [key, child] of Object.entries(object)) {
      const sub = properties[key];
      if (sub) errors.push(...validateJsonSchema(child, sub, `${path}.${key}`));
      else if (schema.additionalProperties === false) errors.push(`${path}: unexpected ${key}`);
      else if (typeof schema.additionalProperties === "object" && schema.additionalProperties !== null)
        errors.push(...validateJsonSchema(child, schema.additionalProperties as Schema, `${path}.${key}`));
    }
  }
  return errors;
}
