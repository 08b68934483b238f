import { z } from "zod";
import { type Criterion, Criterion as CriterionSchema } from "@/server/domain/contract/criteria";
import { type PromptIntent, RequestKind } from "@/server/domain/intent/prompt-intent";
import { argumentsMismatch } from "@/server/domain/text/zod-problems";
import type { Interpretation, ToolCallLike } from "./tool-inputs";

/**
 * The answer tools of the two "understanding" requests (seed 000's IntentDiscoverer and
 * ContractBuilder): what the model read from the person's words, and how an intention's "done" will
 * be checked. Like every model answer they are `safeParse`d, never cast; a contract's criteria are
 * parsed one by one, so one malformed criterion is dropped (and said why) instead of losing the rest.
 */

export const MAX_MODEL_CRITERIA = 8;

export const ReportIntentInput = z.object({
  kind: RequestKind.describe(
    "question: asks about the code; fix: repair something broken; test: write or run tests; refactor: restructure without changing behaviour; create: add something new; change: modify behaviour; run: execute or build",
  ),
  action: z.string().trim().min(1).max(60).describe("The main verb of the request, lower case."),
  targets: z
    .array(z.string().trim().min(1).max(300))
    .max(20)
    .default([])
    .describe("Files, functions, commands or components the request names or clearly means."),
  constraints: z
    .array(z.string().trim().min(1).max(500))
    .max(10)
    .default([])
    .describe('Limits the request states ("without changing the API", "only in src/").'),
});

const CRITERION_HELP =
  'Each criterion is one object: {"kind":"FILE_EXISTS","path":…} | {"kind":"FILE_CONTAINS","path":…,"text":…} | ' +
  '{"kind":"TESTS_PASS","command":…} | {"kind":"FUNCTION_EXISTS","name":…,"path":… or null} | ' +
  '{"kind":"LAYER_APPROPRIATE","allowed":[globs]}. Paths are relative to the workspace root.';

/** A workspace-relative path that stays inside the workspace (the dispatch resolves it again). */
export const TestPath = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .refine(
    (value) => !value.startsWith("/") && !value.split("/").includes(".."),
    "must stay inside the workspace",
  );

export const GeneratedTestInput = z.object({
  path: TestPath.describe(
    "Where the test file goes, relative to the workspace root, e.g. tests/greet.test.sh.",
  ),
  content: z.string().min(1).max(20_000).describe("The whole test file."),
  command: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .describe("The command that runs only this test; exit 0 means it passes."),
});
export type GeneratedTest = z.infer<typeof GeneratedTestInput>;

export const ProposeContractInput = z.object({
  thought: z.string().trim().min(1).max(2_000).describe("Why these checks prove the intention is done."),
  criteria: z
    .array(z.record(z.string(), z.unknown()))
    .max(MAX_MODEL_CRITERIA)
    .describe(
      `At most ${MAX_MODEL_CRITERIA} checks that a command or a file check can confirm. ${CRITERION_HELP}`,
    ),
  generated_test: GeneratedTestInput.optional().describe(
    "Optional, test first: a small test that fails now and passes once the intention is done. It is written before the work (a person approves the file) and its command becomes a check.",
  ),
});

export const UNDERSTANDING_TOOL_DESCRIPTIONS = {
  report_intent: "Report what the person's request asks for: its kind, action, targets and constraints.",
  propose_contract:
    "Propose the acceptance checks of the intention: facts a command or a file check confirms. An empty list means only the action's exit code can tell.",
} as const;

/** The model's contract: the criteria that parsed, and why any others were dropped. */
export interface ModelContract {
  thought: string;
  criteria: Criterion[];
  dropped: string[];
  /** Test first: written before the work; its command is a GENERATED_TEST_PASSES check. */
  generatedTest: GeneratedTest | null;
}

function pick(calls: readonly ToolCallLike[], name: string, text: string): Interpretation<unknown> {
  const call = calls.find((candidate) => candidate.toolName === name);
  if (call) return { ok: true, value: call.input };
  if (calls.length > 0) return { ok: false, problem: `you called ${calls[0]?.toolName}, not ${name}` };
  const said = text.trim() === "" ? "" : `: "${text.trim().slice(0, 200)}"`;
  return { ok: false, problem: `you answered with text instead of calling ${name}${said}` };
}

/** The `name` call's arguments parsed by `schema`, or what was wrong with the answer, for a re-ask. */
export function answerOf<T>(
  calls: readonly ToolCallLike[],
  text: string,
  name: string,
  schema: z.ZodType<T>,
): Interpretation<T> {
  const picked = pick(calls, name, text);
  if (!picked.ok) return picked;
  const parsed = schema.safeParse(picked.value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, problem: argumentsMismatch(name, parsed.error) };
}

export function interpretIntent(calls: readonly ToolCallLike[], text: string): Interpretation<PromptIntent> {
  const picked = pick(calls, "report_intent", text);
  if (!picked.ok) return picked;
  const parsed = ReportIntentInput.safeParse(picked.value);
  if (!parsed.success) return { ok: false, problem: argumentsMismatch("report_intent", parsed.error) };
  return { ok: true, value: { ...parsed.data, action: parsed.data.action.toLowerCase(), source: "model" } };
}

export function interpretContract(
  calls: readonly ToolCallLike[],
  text: string,
): Interpretation<ModelContract> {
  const picked = pick(calls, "propose_contract", text);
  if (!picked.ok) return picked;
  const parsed = ProposeContractInput.safeParse(picked.value);
  if (!parsed.success) return { ok: false, problem: argumentsMismatch("propose_contract", parsed.error) };
  const generatedTest = parsed.data.generated_test ?? null;
  return {
    ok: true,
    value: { thought: parsed.data.thought, ...sortCriteria(parsed.data.criteria), generatedTest },
  };
}

/**
 * Keeps the criteria that parse. A GENERATED_TEST_PASSES criterion is only made from a proposed
 * `generated_test` (whose file is written first); one listed among the criteria names a file nobody
 * will write, so it is dropped.
 */
export function sortCriteria(raw: readonly unknown[]): { criteria: Criterion[]; dropped: string[] } {
  const criteria: Criterion[] = [];
  const dropped: string[] = [];
  const seen = new Set<string>();
  raw.forEach((item, index) => {
    const parsed = CriterionSchema.safeParse(item);
    if (!parsed.success) {
      const kind = typeof item === "object" && item && "kind" in item ? String(item.kind) : "?";
      dropped.push(`#${index + 1} (${kind}): ${parsed.error.issues[0]?.message ?? "invalid"}`);
      return;
    }
    if (parsed.data.kind === "GENERATED_TEST_PASSES") {
      dropped.push(`#${index + 1} (GENERATED_TEST_PASSES): propose it as generated_test, with its content`);
      return;
    }
    const key = JSON.stringify(parsed.data);
    if (seen.has(key)) return;
    seen.add(key);
    criteria.push(parsed.data);
  });
  return { criteria, dropped };
}
