import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The prompt repository (seed 001): every prompt the model sees is a markdown file in `prompts/`,
 * with `{{var}}` placeholders. Rendering is strict in both directions — a placeholder without a value
 * and a value the file never uses are both errors — so a renamed variable cannot silently send a
 * prompt with a hole in it.
 */

export class PromptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PromptError";
  }
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const PROMPT_NAME = /^[a-z0-9][a-z0-9-]*$/;

export interface PromptOptions {
  /** Directory holding the `.md` files; defaults to `<cwd>/prompts` (the app runs from the repo root). */
  dir?: string;
}

export function defaultPromptsDir(): string {
  return path.join(process.cwd(), "prompts");
}

export function loadPrompt(name: string, options: PromptOptions = {}): string {
  if (!PROMPT_NAME.test(name)) throw new PromptError(`Invalid prompt name "${name}"`);
  const file = path.join(options.dir ?? defaultPromptsDir(), `${name}.md`);
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new PromptError(
      `Prompt "${name}" not found at ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`,
    );
  }
}

/** The placeholder names a template uses, each once, in order of first use. */
export function placeholdersOf(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((match) => match[1] ?? ""))];
}

/** Fills a template in one pass, so a value that itself contains `{{x}}` is inserted literally. */
export function fillTemplate(name: string, template: string, vars: Record<string, string>): string {
  const used = placeholdersOf(template);
  const missing = used.filter((key) => !Object.hasOwn(vars, key));
  const unused = Object.keys(vars).filter((key) => !used.includes(key));
  const problems = [
    ...(missing.length > 0 ? [`no value for ${missing.map((key) => `{{${key}}}`).join(", ")}`] : []),
    ...(unused.length > 0 ? [`values not used by the file: ${unused.join(", ")}`] : []),
  ];
  if (problems.length > 0) throw new PromptError(`Prompt "${name}": ${problems.join("; ")}`);
  return template.replace(PLACEHOLDER, (_, key: string) => vars[key] ?? "").trim();
}

export function renderPrompt(
  name: string,
  vars: Record<string, string>,
  options: PromptOptions = {},
): string {
  return fillTemplate(name, loadPrompt(name, options), vars);
}
