import { parseDocument } from "yaml";
import type { z } from "zod";
import { issuesOf } from "@/server/domain/text/zod-problems";
import { TierConfig } from "./schema";

/**
 * Loads the tier config from YAML and reports every problem at once, each with its path
 * (`tiers[2].model: required; budgets.maxCostUsd: must be positive`), so a person fixes the file in
 * one pass instead of one error per restart (seed 002: validateTierConfig returns all issues).
 */

export interface TierConfigIssue {
  /** `tiers[2].model`, `prices["openai/gpt-4o"].inputPer1M`, `(root)`, or `(yaml)` for syntax errors. */
  path: string;
  message: string;
}

export type TierConfigResult = { ok: true; config: TierConfig } | { ok: false; issues: TierConfigIssue[] };

export class TierConfigError extends Error {
  constructor(readonly issues: readonly TierConfigIssue[]) {
    super(`Invalid tier config: ${formatIssues(issues)}`);
    this.name = "TierConfigError";
  }
}

export function formatIssues(issues: readonly TierConfigIssue[]): string {
  return issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
}

/** Short messages a person can act on, instead of zod's "Too small: expected number to be >0". */
const friendly: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type":
      // YAML writes an empty value (`model:`) as null: to a person that is a missing value too.
      if (issue.input === undefined || issue.input === null) return "required";
      if (issue.expected === "int") return "must be a whole number";
      return `must be ${/^[aeiou]/.test(issue.expected) ? "an" : "a"} ${issue.expected}`;
    case "too_small":
      if (issue.origin === "array") return `must have at least ${issue.minimum} item(s)`;
      if (issue.origin === "string") return "must not be empty";
      return issue.inclusive ? `must be at least ${issue.minimum}` : "must be positive";
    case "invalid_value":
      if (issue.input === undefined || issue.input === null) return "required";
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}`;
    default:
      return undefined;
  }
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Rules that span fields. They read the raw value defensively instead of refining the schema, because
 * zod skips refinements when any field is invalid — and then the file would need a second pass.
 */
function crossFieldIssues(raw: unknown): TierConfigIssue[] {
  if (!isRecord(raw) || !Array.isArray(raw.tiers)) return [];
  const issues: TierConfigIssue[] = [];
  const prices = isRecord(raw.prices) ? raw.prices : undefined;
  const firstByName = new Map<string, number>();
  raw.tiers.forEach((tier: unknown, index) => {
    if (!isRecord(tier)) return;
    if (typeof tier.name === "string" && tier.name.trim() !== "") {
      const first = firstByName.get(tier.name.trim());
      if (first === undefined) firstByName.set(tier.name.trim(), index);
      else issues.push({ path: `tiers[${index}].name`, message: `duplicate of tiers[${first}].name` });
    }
    // A model without a price would make the money budget silently blind to it.
    const unpriced = (model: unknown, path: string) => {
      if (prices && typeof model === "string" && model.trim() !== "" && !(model.trim() in prices))
        issues.push({ path, message: `no price for "${model.trim()}" in prices` });
    };
    unpriced(tier.model, `tiers[${index}].model`);
    const roles = isRecord(tier.roles) ? tier.roles : {};
    for (const [role, model] of Object.entries(roles))
      if (isRecord(model)) unpriced(model.model, `tiers[${index}].roles.${role}.model`);
    if (tier.mode !== "full" && (tier.chaos === true || Object.keys(roles).length > 0))
      issues.push({
        path: `tiers[${index}].mode`,
        message: "roles and chaos need mode: full (a simple tier has only its own model)",
      });
  });
  return issues;
}

export function validateTierConfig(raw: unknown): TierConfigResult {
  const parsed = TierConfig.safeParse(raw, { error: friendly });
  const issues = [...(parsed.success ? [] : issuesOf(parsed.error)), ...crossFieldIssues(raw)];
  if (parsed.success && issues.length === 0) return { ok: true, config: parsed.data };
  return { ok: false, issues };
}

export function parseTierConfig(yamlText: string): TierConfigResult {
  const document = parseDocument(yamlText, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0) {
    return {
      ok: false,
      issues: document.errors.map((error) => ({
        path: "(yaml)",
        message: error.message.split("\n")[0] ?? "",
      })),
    };
  }
  if (document.contents === null)
    return { ok: false, issues: [{ path: "(root)", message: "the file is empty" }] };
  return validateTierConfig(document.toJS());
}

/** For startup: a bad config stops the server with every problem listed. */
export function loadTierConfig(yamlText: string): TierConfig {
  const result = parseTierConfig(yamlText);
  if (!result.ok) throw new TierConfigError(result.issues);
  return result.config;
}
