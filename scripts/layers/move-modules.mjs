#!/usr/bin/env node
/**
 * Moves modules and rewrites every import of them (issue #18's domain-layer moves, see
 * docs/domain-layer-plan.md). Usage:
 *
 *   node scripts/layers/move-modules.mjs server/orchestrator/errors.ts=server/domain/errors.ts [more old=new…]
 *   node scripts/layers/move-modules.mjs --plan moves.txt        (one `old=new` a line, # comments)
 *   add --dry-run to print what would change without touching a file.
 *
 * For each move: `git mv` the module and its tests next to it (`name.test.ts`, `name.*.test.ts`), then
 * in every TypeScript file of the repository rewrite the specifiers that resolved to a moved file —
 * `from "…"`, `import "…"`, `import("…")`, `vi.mock("…")`, `vi.importActual("…")` — to the new place:
 * `./name` when the importer sits in the same folder, `@/path` otherwise. Specifiers inside moved files
 * are recomputed from their new folder. Plain strings naming an old path (e.g. `path.resolve("server/…")`)
 * are listed at the end for a person to check; they are not rewritten.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SCANNED = [
  "server",
  "app",
  "bench",
  "e2e",
  "scripts",
  "testing",
  "instrumentation.ts",
  "vitest.config.ts",
  "playwright.config.ts",
];
const SKIPPED = /(^|\/)(node_modules|\.next|generated)(\/|$)/;
const EXTENSIONS = [".ts", ".tsx", "/index.ts", "/index.tsx"];

function parseMoves(argv) {
  const pairs = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--dry-run") continue;
    if (arg === "--plan") {
      const file = argv[++i];
      if (!file) throw new Error("--plan needs a file");
      for (const line of readFileSync(file, "utf8").split("\n")) {
        const text = line.replace(/#.*/, "").trim();
        if (text) pairs.push(text);
      }
      continue;
    }
    pairs.push(arg);
  }
  const moves = new Map();
  for (const pair of pairs) {
    const [from, to, extra] = pair.split("=");
    if (!from || !to || extra !== undefined) throw new Error(`"${pair}" is not old=new`);
    if (!existsSync(path.join(ROOT, from))) throw new Error(`${from} does not exist`);
    if (existsSync(path.join(ROOT, to))) throw new Error(`${to} exists already`);
    if (!/\.tsx?$/.test(from) || !/\.tsx?$/.test(to)) throw new Error(`${pair}: move .ts/.tsx files only`);
    moves.set(from, to);
  }
  if (moves.size === 0) throw new Error("nothing to move (give old=new pairs or --plan file)");
  return moves;
}

/** The tests that sit next to a module and move with it: name.test.ts, name.property.test.ts, … */
function companions(moves) {
  const extra = new Map();
  for (const [from, to] of moves) {
    const dir = path.dirname(from);
    const base = path.basename(from).replace(/\.tsx?$/, "");
    for (const entry of readdirSync(path.join(ROOT, dir))) {
      if (entry.startsWith(`${base}.`) && /\.test\.tsx?$/.test(entry) && !moves.has(path.join(dir, entry))) {
        const toBase = path.basename(to).replace(/\.tsx?$/, "");
        extra.set(path.join(dir, entry), path.join(path.dirname(to), toBase + entry.slice(base.length)));
      }
    }
  }
  return new Map([...moves, ...extra]);
}

function sourceFiles() {
  const files = [];
  const walk = (rel) => {
    if (SKIPPED.test(rel)) return;
    const full = path.join(ROOT, rel);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) {
      for (const entry of readdirSync(full)) walk(path.join(rel, entry));
    } else if (/\.(tsx?|mts|cts)$/.test(rel)) files.push(rel);
  };
  for (const entry of SCANNED) walk(entry);
  return files;
}

/** The repository path a specifier written in `importer` points at, or null (a package, not found). */
function resolveSpecifier(importer, specifier, exists) {
  let base;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith("./") || specifier.startsWith("../"))
    base = path.posix.normalize(path.posix.join(path.posix.dirname(importer), specifier));
  else return null;
  if (/\.tsx?$/.test(base) && exists(base)) return base;
  for (const ext of EXTENSIONS) if (exists(base + ext)) return base + ext;
  return null;
}

/** How `importer` (at its new place) should name `target` (at its new place). */
function specifierFor(importer, target) {
  const bare = target.replace(/\/index\.tsx?$/, "").replace(/\.tsx?$/, "");
  if (path.posix.dirname(importer) === path.posix.dirname(target)) return `./${path.posix.basename(bare)}`;
  return `@/${bare}`;
}

const SPECIFIER =
  /(\bfrom\s+|\bimport\s+|\bimport\(\s*|\bvi\.mock\(\s*|\bvi\.importActual(?:<[^>]*>)?\(\s*|\brequire\(\s*)(["'])([^"']+)\2/g;

function main() {
  const argv = process.argv.slice(2);
  const dryRun = argv.includes("--dry-run");
  const moves = companions(parseMoves(argv));
  const files = sourceFiles();
  const before = new Set(files);
  const exists = (rel) => before.has(rel);
  const newPath = (rel) => moves.get(rel) ?? rel;

  const edits = new Map();
  for (const file of files) {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    const target = newPath(file);
    let changed = false;
    const rewritten = text.replace(SPECIFIER, (whole, lead, quote, specifier) => {
      const resolved = resolveSpecifier(file, specifier, exists);
      if (!resolved) return whole;
      if (!moves.has(resolved) && !moves.has(file)) return whole;
      const next = specifierFor(target, newPath(resolved));
      // Keep a specifier that still resolves to the same file (an alias that needs no change).
      if (next === specifier) return whole;
      if (!moves.has(resolved) && specifier.startsWith("@/")) return whole;
      changed = true;
      return `${lead}${quote}${next}${quote}`;
    });
    if (changed) edits.set(file, rewritten);
  }

  const strays = [];
  for (const file of files) {
    const text = edits.get(file) ?? readFileSync(path.join(ROOT, file), "utf8");
    for (const from of moves.keys()) {
      if (text.includes(`"${from}"`) || text.includes(`'${from}'`)) strays.push(`${file} names "${from}"`);
    }
  }

  for (const [from, to] of moves) console.log(`move ${from} → ${to}`);
  for (const file of edits.keys()) console.log(`rewrite imports in ${file}`);
  if (dryRun) {
    console.log(`(dry run: ${moves.size} moves, ${edits.size} files to rewrite)`);
  } else {
    for (const [file, text] of edits) writeFileSync(path.join(ROOT, file), text);
    for (const [from, to] of moves) {
      execFileSync("mkdir", ["-p", path.dirname(path.join(ROOT, to))]);
      execFileSync("git", ["mv", from, to], { cwd: ROOT, stdio: "inherit" });
    }
    console.log(`${moves.size} files moved, ${edits.size} files rewritten`);
  }
  if (strays.length > 0) {
    console.log("\nplain strings naming a moved path (check by hand):");
    for (const line of strays) console.log(`  ${line}`);
  }
}

try {
  main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(2);
}
