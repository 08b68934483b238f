import { parse, stringify } from "yaml";
import { z } from "zod";

/**
 * `.orchestration/active_intents.yaml` (seed 003) and the `<intent_context>` block that
 * select_active_intent returns. Pure: parsing and rendering only.
 */

const texts = z.array(z.coerce.string()).default([]);
export const IntentRecord = z.object({
  id: z.coerce.string().min(1),
  name: z.coerce.string().default(""),
  status: z.coerce.string().default(""),
  owned_scope: texts,
  constraints: texts,
  acceptance_criteria: texts,
});
export type IntentRecord = z.infer<typeof IntentRecord>;
const IntentsFile = z.object({ active_intents: z.array(IntentRecord).default([]) });

export type IntentsParse = { ok: true; intents: IntentRecord[] } | { ok: false; reason: string };

export function parseIntentsFile(text: string): IntentsParse {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    return {
      ok: false,
      reason: `it is not valid YAML (${error instanceof Error ? error.message.split("\n")[0] : "parse error"})`,
    };
  }
  const parsed = IntentsFile.safeParse(raw ?? {});
  if (!parsed.success)
    return {
      ok: false,
      reason: `it does not match the schema (${parsed.error.issues[0]?.message ?? "invalid"})`,
    };
  return { ok: true, intents: parsed.data.active_intents };
}

/**
 * The file as Arbor writes it from the project's intents (seed 003's layout), with a header saying
 * where it comes from. `parseIntentsFile` reads back exactly what went in.
 */
export function renderIntentsFile(intents: readonly IntentRecord[]): string {
  const body = stringify(
    {
      active_intents: intents.map((intent) => ({
        id: intent.id,
        name: intent.name,
        status: intent.status,
        owned_scope: [...intent.owned_scope],
        constraints: [...intent.constraints],
        acceptance_criteria: [...intent.acceptance_criteria],
      })),
    },
    // Every string quoted: a name like `yes`, `1.0` or `null` must come back as that text.
    { defaultStringType: "QUOTE_DOUBLE", defaultKeyType: "PLAIN", lineWidth: 0 },
  );
  return [
    "# Written by Arbor from the project's Intents card; edit the intents there, not here.",
    "# Changes made in this file are replaced when the project's intents change.",
    body,
  ].join("\n");
}

function escapeXml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

export function intentContext(intent: IntentRecord): string {
  const list = (tag: string, item: string, values: readonly string[]) => [
    `    <${tag}>`,
    ...values.map((value) => `      <${item}>${escapeXml(value)}</${item}>`),
    `    </${tag}>`,
  ];
  return [
    "<intent_context>",
    `  <intent id="${escapeXml(intent.id)}" name="${escapeXml(intent.name)}">`,
    ...list("owned_scope", "path", intent.owned_scope),
    ...list("constraints", "constraint", intent.constraints),
    ...list("acceptance_criteria", "criterion", intent.acceptance_criteria),
    "  </intent>",
    "</intent_context>",
  ].join("\n");
}
