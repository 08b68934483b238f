import { z } from "zod";

/**
 * What the user asked for, read from their words with seed 000's heuristics (no model needed): the
 * kind of request (the router's classification), the action verb, the targets it names, and the
 * constraints it states.
 */
export const REQUEST_KINDS = ["question", "fix", "test", "refactor", "create", "change", "run"] as const;
export const RequestKind = z.enum(REQUEST_KINDS);
export type RequestKind = z.infer<typeof RequestKind>;

export const PromptIntent = z.object({
  kind: RequestKind,
  action: z.string(),
  targets: z.array(z.string()).max(20),
  constraints: z.array(z.string()).max(10),
  /** Who read the request: the run's model, or these heuristics (offline, or when the model failed). */
  source: z.enum(["model", "heuristics"]).default("heuristics"),
});
export type PromptIntent = z.infer<typeof PromptIntent>;

const KIND_RULES: [RequestKind, RegExp][] = [
  [
    "question",
    /^\s*(what|why|how|where|which|who|when|does|do|is|are|can|could|explain|describe|tell me)\b.*|\?\s*$/i,
  ],
  ["run", /^\s*(run|execute|start|build|install)\b/i],
  ["fix", /\b(fix|repair|resolve|debug|broken|bug|error|crash|fails?)\b/i],
  ["test", /\b(tests?|spec|coverage)\b/i],
  ["refactor", /\b(refactor|rename|extract|clean ?up|simplify|restructure|move)\b/i],
  ["create", /\b(create|add|new|generate|scaffold|write|implement|make)\b/i],
];

const PATH = /(?:^|[\s(])((?:\.{0,2}\/)?[\w.-]+(?:\/[\w.-]+)*\.[A-Za-z0-9]{1,8})(?=$|[\s),.;:])/g;
/** A constraint runs to the end of its sentence (a period followed by a space), clause or line. */
const CONSTRAINT =
  /\b(without|don't|do not|never|must|only|keep|avoid|no more than|at most|at least)\b.*?(?=\.(?:\s|$)|;|\n|$)/gi;

export function analyzePrompt(prompt: string): PromptIntent {
  const text = prompt.trim();
  const kind = KIND_RULES.find(([, pattern]) => pattern.test(text))?.[0] ?? "change";
  const action = (/^\s*([A-Za-z]+)/.exec(text)?.[1] ?? "do").toLowerCase();
  const targets = new Set<string>();
  for (const match of text.matchAll(/`([^`\n]+)`/g)) if (match[1]) targets.add(match[1]);
  for (const match of text.matchAll(PATH)) if (match[1]) targets.add(match[1]);
  const constraints = [...text.matchAll(CONSTRAINT)].map((match) => match[0].trim()).slice(0, 10);
  return { kind, action, targets: [...targets].slice(0, 20), constraints, source: "heuristics" };
}
