import { z } from "zod";
import { capLine } from "@/server/domain/text/cap";

/**
 * Reasoning retention (seed 001 §4.3): the UI may show a model's full `<ide_reasoning>`, but the next
 * request only gets a compact ReasoningOutcome, so old reasoning never piles up in the context.
 * Models format reasoning loosely (headings, bold labels, bullets, JSON), so the parser is tolerant in
 * what it reads and strict in what it returns: every field capped, and delivery is NEEDS_WORK unless
 * the text says DONE in a delivery field — a garbled answer must not mark a request delivered.
 */

export const DELIVERY_STATES = ["DONE", "NEEDS_WORK"] as const;
export const DeliveryState = z.enum(DELIVERY_STATES);
export type DeliveryState = z.infer<typeof DeliveryState>;

export const OUTCOME_FIELD_CAP = 400;
export const RISK_CAP = 200;

export const ReasoningOutcome = z.object({
  plan_delta: z.string().max(OUTCOME_FIELD_CAP),
  next_action: z.string().max(OUTCOME_FIELD_CAP),
  known_risks: z
    .string()
    .max(RISK_CAP)
    .refine((text) => !text.includes("\n"), "must be one line"),
  delivery_state: DeliveryState,
});
export type ReasoningOutcome = z.infer<typeof ReasoningOutcome>;

type Field = keyof ReasoningOutcome;
const FIELDS = [
  "plan_delta",
  "next_action",
  "known_risks",
  "delivery_state",
] as const satisfies readonly Field[];

const SYNONYMS: Record<Field, readonly string[]> = {
  plan_delta: ["plan delta", "plan", "plan update", "plan change", "plan changes", "changes to plan"],
  next_action: ["next action", "next actions", "action", "actions", "next step", "next steps", "next"],
  known_risks: ["known risks", "known risk", "risks", "risk", "reflect", "reflection", "assumptions"],
  delivery_state: ["delivery", "delivery state", "delivery status", "status"],
};
/** Sections the macro format has that are not part of the outcome; they must end the previous one. */
const IGNORED = ["analyze", "analysis", "research", "why", "summary", "reasoning", "context"];

function normalizeLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/[_-]+/g, " ")
    .replace(/[^a-z ]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** The outcome field a label names, "ignored" for known non-outcome sections, undefined otherwise. */
function fieldOf(label: string): Field | "ignored" | undefined {
  const key = normalizeLabel(label);
  const field = FIELDS.find((candidate) => SYNONYMS[candidate].includes(key));
  if (field) return field;
  return IGNORED.includes(key) ? "ignored" : undefined;
}

function deliveryFrom(value: string | undefined): DeliveryState {
  if (value === undefined) return "NEEDS_WORK";
  const plain = value.replace(/[*`_~"']/g, " ").trim();
  if (/needs\s*-?\s*work/i.test(plain)) return "NEEDS_WORK";
  return /^(done|complete|completed)\b/i.test(plain) ? "DONE" : "NEEDS_WORK";
}

function stringify(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(stringify).join("; ");
  if (value === null || value === undefined) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** JSON objects in the text: fenced blocks first, then every balanced `{…}` that parses. */
function jsonCandidates(text: string): Record<string, unknown>[] {
  const sources = [...text.matchAll(/```(?:json)?\s*([\s\S]*?)```/g)].map((match) => match[1] ?? "");
  // Bounded so a text full of stray braces cannot make this quadratic in its length.
  let starts = 0;
  for (let start = text.indexOf("{"); start !== -1 && starts++ < 20; start = text.indexOf("{", start + 1)) {
    let depth = 0;
    for (let end = start; end < text.length; end++) {
      if (text[end] === "{") depth++;
      else if (text[end] === "}" && --depth === 0) {
        sources.push(text.slice(start, end + 1));
        break;
      }
    }
  }
  const objects: Record<string, unknown>[] = [];
  for (const source of sources) {
    try {
      const value: unknown = JSON.parse(source);
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        objects.push(Object.fromEntries(Object.entries(value)));
      }
    } catch {
      // Not JSON (prose with braces, a partial object): the label parser gets its chance below.
    }
  }
  return objects;
}

function fromJson(text: string): Partial<Record<Field, string>> | undefined {
  for (const object of jsonCandidates(text)) {
    const found: Partial<Record<Field, string>> = {};
    for (const [key, value] of Object.entries(object)) {
      const field = fieldOf(key.replace(/([a-z])([A-Z])/g, "$1 $2"));
      if (field && field !== "ignored") found[field] = stringify(value);
    }
    if (Object.keys(found).length > 0) return found;
  }
  return undefined;
}

const HEADING = /^\s*#{1,6}\s+(.+?)\s*:?\s*$/;
/** `- **Plan:** text`, `**Plan**: text`, `1. Next action — text`, `Delivery: DONE`. */
const LABEL =
  /^\s*(?:[-*+•]|\d+[.)])?\s*(?:\*\*|__)?([A-Za-z][A-Za-z _-]{0,30}?)(?:\*\*|__)?\s*[:—–]\s*(?:\*\*|__)?\s*(.*)$/;
const BARE_BOLD = /^\s*(?:[-*+•]|\d+[.)])?\s*(?:\*\*|__)([A-Za-z][A-Za-z _-]{0,30}?)(?:\*\*|__)\s*$/;

function fromLabels(text: string): Partial<Record<Field, string>> {
  const sections: Partial<Record<Field, string[]>> = {};
  let current: Field | "ignored" | undefined;
  const append = (field: Field | "ignored" | undefined, part: string) => {
    if (field === undefined || field === "ignored") return;
    const list = sections[field] ?? [];
    list.push(part);
    sections[field] = list;
  };
  for (const line of text.split("\n")) {
    const heading = HEADING.exec(line);
    if (heading) {
      // An unknown heading still closes the section above it.
      current = fieldOf(heading[1] ?? "") ?? "ignored";
      continue;
    }
    const bold = BARE_BOLD.exec(line);
    const boldField = bold ? fieldOf(bold[1] ?? "") : undefined;
    if (boldField) {
      current = boldField;
      continue;
    }
    const label = LABEL.exec(line);
    const labelField = label ? fieldOf(label[1] ?? "") : undefined;
    if (labelField) {
      current = labelField;
      append(labelField, label?.[2] ?? "");
      continue;
    }
    append(current, line.replace(/^\s*(?:[-*+•]|\d+[.)])\s*/, ""));
  }
  const found: Partial<Record<Field, string>> = {};
  for (const field of FIELDS) {
    const lines = sections[field];
    if (lines) found[field] = lines.filter((part) => part.trim() !== "").join("; ");
  }
  return found;
}

/** A closing line that is only the state, as the delivery prompt asks: `DONE`, **NEEDS_WORK**. */
function trailingState(text: string): string | undefined {
  const last = text.trim().split("\n").at(-1) ?? "";
  return /^[\s*`_]*(DONE|NEEDS_WORK)[\s*`_.]*$/.test(last) ? last : undefined;
}

export function compactReasoning(fullText: string): ReasoningOutcome {
  const text = fullText.replace(/<\/?ide_reasoning>/g, "\n").replace(/\r\n?/g, "\n");
  const found = fromJson(text) ?? fromLabels(text);
  const structured = Object.keys(found).length > 0;
  return ReasoningOutcome.parse({
    // Unstructured prose still keeps its gist rather than vanishing from the next request.
    plan_delta: capLine(found.plan_delta ?? (structured ? "" : text), OUTCOME_FIELD_CAP),
    next_action: capLine(found.next_action ?? "", OUTCOME_FIELD_CAP),
    known_risks: capLine(found.known_risks ?? "", RISK_CAP),
    delivery_state: deliveryFrom(found.delivery_state ?? trailingState(text)),
  });
}
