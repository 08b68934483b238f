import { Ajv2020 } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import schemaJson from "./agent-trace-record.schema.json";

/**
 * Checks values against the Agent Trace spec's own record schema (a verbatim copy of its
 * `trace-record.schema.json`, draft 2020-12) with ajv, so the tests hold our records to the spec and not
 * only to our zod mirror of it. Strict: a keyword ajv does not know fails the compile instead of passing.
 */
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validateRecord = ajv.compile(schemaJson);

/** Every violation of the Agent Trace record schema by `value`, as `path: message`; empty when valid. */
export function validateJsonSchema(value: unknown): string[] {
  if (validateRecord(value)) return [];
  return (validateRecord.errors ?? []).map(
    (error) => `${error.instancePath || "/"}: ${error.message ?? error.keyword}`,
  );
}
