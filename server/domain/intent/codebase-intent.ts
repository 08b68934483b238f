import { z } from "zod";
import { isTestFile } from "@/server/domain/contract/test-files";

const MAX_TEST_FILES = 50;
const MAX_TEST_SCRIPT = 500;

/**
 * What the workspace is, read from its file list and package manifest (seed 000's "scan codebase":
 * language, test framework, conventions, related files). Pure: the sandbox listing is passed in.
 */
export const CodebaseIntent = z.object({
  languages: z.array(z.string()).max(5),
  testFramework: z.string().nullable(),
  /** A command that runs the tests, when one could be derived. */
  testCommand: z.string().nullable(),
  conventions: z.array(z.string()).max(10),
  fileCount: z.number().int().nonnegative(),
  relatedFiles: z.array(z.string()).max(20),
  /**
   * Test files in the listing, those related to the targets first (a generated test is only written
   * when none exists for its target, issue #4). Defaulted: runs discovered before it have none.
   */
  testFiles: z.array(z.string()).max(MAX_TEST_FILES).default([]),
  /**
   * package.json's `scripts.test`, when `npm test` is the test command and the script is short: what
   * decides whether a check of `npm test` can run with a reporter (check-run.ts). Absent in older runs.
   */
  testScript: z.string().max(MAX_TEST_SCRIPT).nullish(),
});
export type CodebaseIntent = z.infer<typeof CodebaseIntent>;

const LANGUAGE_BY_EXTENSION: Record<string, string> = {
  ts: "TypeScript",
  tsx: "TypeScript",
  js: "JavaScript",
  jsx: "JavaScript",
  mjs: "JavaScript",
  py: "Python",
  go: "Go",
  rs: "Rust",
  rb: "Ruby",
  java: "Java",
  kt: "Kotlin",
  sh: "Shell",
  c: "C",
  cpp: "C++",
  cs: "C#",
  php: "PHP",
};

const NO_TEST_SCRIPT = /no test specified/i;

/** The runner a package.json test script runs, when it names one ("node --test", "vitest run", …). */
export function scriptFramework(script: string): string | null {
  if (/(^|[\s;&|])node\s+(--[\w-]+(=\S+)?\s+)*--test\b/.test(script)) return "node:test";
  for (const name of ["vitest", "jest", "mocha", "ava"])
    if (new RegExp(`(^|[\\s;&|/])${name}(\\s|$)`).test(script)) return name;
  if (/(^|[\s;&|])(python3? -m )?pytest\b/.test(script)) return "pytest";
  return null;
}

function detectTests(
  files: readonly string[],
  packageJson: string | null,
): { framework: string | null; command: string | null; script?: string } {
  const has = (pattern: RegExp) => files.some((file) => pattern.test(file));
  if (packageJson) {
    let manifest: {
      scripts?: Record<string, string>;
      devDependencies?: Record<string, string>;
      dependencies?: Record<string, string>;
    } = {};
    try {
      manifest = JSON.parse(packageJson);
    } catch {
      manifest = {};
    }
    const deps = { ...manifest.dependencies, ...manifest.devDependencies };
    const script = typeof manifest.scripts?.test === "string" ? manifest.scripts.test : "";
    const framework =
      scriptFramework(script) ?? ["vitest", "jest", "mocha", "ava"].find((name) => name in deps) ?? null;
    // npm init's placeholder ("Error: no test specified" && exit 1) is no test command.
    if (script && !NO_TEST_SCRIPT.test(script))
      return {
        framework: framework ?? "npm test script",
        command: "npm test",
        ...(script.length <= MAX_TEST_SCRIPT ? { script } : {}),
      };
    if (framework) return { framework, command: `npx ${framework}${framework === "vitest" ? " run" : ""}` };
  }
  if (has(/(^|\/)(pytest\.ini|conftest\.py|pyproject\.toml)$/) || has(/(^|\/)(test_[^/]+|[^/]+_test)\.py$/))
    return { framework: "pytest", command: "python3 -m pytest -q" };
  if (has(/(^|\/)go\.mod$/)) return { framework: "go test", command: "go test ./..." };
  if (has(/(^|\/)Cargo\.toml$/)) return { framework: "cargo test", command: "cargo test" };
  if (has(/(^|\/)spec\/.+_spec\.rb$/)) return { framework: "rspec", command: "bundle exec rspec" };
  if (has(/(^|\/)Makefile$/)) return { framework: "make", command: "make test" };
  return { framework: null, command: null };
}

export function analyzeCodebase(
  files: readonly string[],
  packageJson: string | null,
  targets: readonly string[] = [],
): CodebaseIntent {
  const counts = new Map<string, number>();
  for (const file of files) {
    const language = LANGUAGE_BY_EXTENSION[file.split(".").pop()?.toLowerCase() ?? ""];
    if (language) counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  const languages = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([language]) => language)
    .slice(0, 5);
  const tests = detectTests(files, packageJson);
  const conventions: string[] = [];
  if (files.some((file) => file.startsWith("src/"))) conventions.push("sources under src/");
  if (files.some((file) => /(^|\/)(tests?|__tests__|spec)\//.test(file)))
    conventions.push("tests in a tests/ (or spec/) folder");
  if (files.some((file) => /\.(test|spec)\.[jt]sx?$/.test(file)))
    conventions.push("tests next to the code (*.test.*)");
  if (files.some((file) => /(^|\/)\.editorconfig$|(^|\/)(biome|\.eslintrc|\.prettierrc)/.test(file)))
    conventions.push("a formatter/linter is configured");
  // A target matches files by its path and by its stem (src/parser.ts also finds src/parser.test.ts).
  const words = targets.flatMap((target) => {
    const path = target.toLowerCase().replace(/^\.\//, "");
    const stem = path.split("/").pop()?.split(".")[0] ?? "";
    return stem.length > 2 ? [path, stem] : [path];
  });
  const relatedFiles = files
    .filter((file) => words.some((word) => word.length > 2 && file.toLowerCase().includes(word)))
    .slice(0, 20);
  const testish = files.filter(isTestFile);
  const related = new Set(relatedFiles);
  const testFiles = [
    ...testish.filter((file) => related.has(file)),
    ...testish.filter((file) => !related.has(file)),
  ].slice(0, MAX_TEST_FILES);
  return {
    languages,
    testFramework: tests.framework,
    testCommand: tests.command,
    conventions,
    fileCount: files.length,
    relatedFiles,
    testFiles,
    ...(tests.script !== undefined ? { testScript: tests.script } : {}),
  };
}
