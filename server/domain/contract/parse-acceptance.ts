import type { Criterion } from "./criteria";

/**
 * Turns an acceptance sentence into criteria with seed 000's offline heuristics. Only phrasings that
 * name something checkable become criteria; anything else yields none, and the exit code of the
 * action stays the only check. Several sentences or clauses joined by "and" / ";" may give several.
 */
const CODE = "`([^`\\n]+)`";
const NAME = `(?:${CODE}|([\\w./-]+\\.[\\w]+))`;

const RULES: { pattern: RegExp; build: (match: RegExpExecArray) => Criterion | null }[] = [
  // Most specific first: a span claimed by one rule is not read again by a later one.
  {
    pattern: new RegExp(`(?:function|method|class) ${CODE} (?:exists|is defined)(?: in ${NAME})?`, "gi"),
    build: (m) => ({
      kind: "FUNCTION_EXISTS",
      name: (m[1] ?? "").replace(/\(\)$/, ""),
      path: m[2] || m[3] || null,
    }),
  },
  {
    pattern: new RegExp(`generated test ${NAME} passes with ${CODE}`, "gi"),
    build: (m) => ({ kind: "GENERATED_TEST_PASSES", path: pick(m[1], m[2]), command: m[3] ?? "" }),
  },
  {
    pattern: new RegExp(`(?:the )?(?:file |directory )?${NAME} (?:contains|includes|has) ${CODE}`, "gi"),
    build: (m) => ({ kind: "FILE_CONTAINS", path: pick(m[1], m[2]), text: m[3] ?? "" }),
  },
  {
    pattern: new RegExp(`(?:the )?(?:file |directory )?${NAME} (?:exists|is created|is present)`, "gi"),
    build: (m) => ({ kind: "FILE_EXISTS", path: pick(m[1], m[2]) }),
  },
  {
    pattern: new RegExp(
      `(?:the )?(?:command |tests? |suite )?${CODE} (?:exits 0|exits with 0|succeeds|passes|pass)`,
      "gi",
    ),
    build: (m) => ({ kind: "TESTS_PASS", command: m[1] ?? "" }),
  },
];

function pick(...candidates: (string | undefined)[]): string {
  return candidates.find((value) => value !== undefined && value !== "") ?? "";
}

export function parseAcceptance(acceptance: string): Criterion[] {
  const found: { at: number; criterion: Criterion }[] = [];
  const taken: [number, number][] = [];
  for (const rule of RULES) {
    for (const match of acceptance.matchAll(rule.pattern)) {
      const start = match.index ?? 0;
      const end = start + match[0].length;
      if (taken.some(([from, to]) => start < to && end > from)) continue;
      const criterion = rule.build(match as RegExpExecArray);
      if (!criterion || !isComplete(criterion)) continue;
      taken.push([start, end]);
      found.push({ at: start, criterion });
    }
  }
  const unique = new Map<string, Criterion>();
  for (const { criterion } of found.sort((a, b) => a.at - b.at))
    unique.set(JSON.stringify(criterion), criterion);
  return [...unique.values()];
}

function isComplete(criterion: Criterion): boolean {
  return Object.values(criterion).every((value) => value !== "");
}
