import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Proves each rule of the layer gate fires (issue #18): scratch files with deliberately wrong imports
 * are written into the tree, dependency-cruiser runs on them with the gate's configs and must exit
 * non-zero naming the rule and the scratch file. Every rule the two configs define needs a case here,
 * so a new rule cannot be added without proof that it fires. The files are removed afterwards.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const require = createRequire(import.meta.url);
const tag = `zz-layer-scratch-${process.pid}`;

/** rule → the scratch file that breaks it, and that file's text. */
const CASES: { rule: string; file: string; text: string }[] = [
  {
    rule: "layer-domain",
    file: `server/domain/${tag}-domain.ts`,
    text: 'import { env } from "@/server/env";\nexport const scratch = env;\n',
  },
  {
    rule: "domain-imports-only-zod",
    file: `server/domain/${tag}-package.ts`,
    text: 'import pino from "pino";\nexport const scratch = pino;\n',
  },
  {
    rule: "production-imports-test-support",
    file: `server/domain/${tag}-testing.ts`,
    text: 'import { sequence } from "@/testing/events/events";\nexport const scratch = sequence;\n',
  },
  layer("platform", "server/data-dir", "@/server/events/store"),
  layer("events", "server/events", "@/server/policy/approval/decide"),
  layer("policy", "server/policy", "@/server/sandbox/shell"),
  layer("adapters", "server/model", "@/server/riva/engine"),
  layer("riva", "server/riva", "@/server/orchestrator/orchestrator"),
  layer("riva-decide", "server/riva/decide", "@/server/riva/perform/model-calls"),
  layer("riva-perform", "server/riva/perform", "@/server/riva/engine"),
  layer("services", "server/answer", "@/server/api/root"),
  layer("api", "server/api", "@/app/_trpc/client"),
  {
    rule: "no-circular",
    file: `server/domain/${tag}-cycle-a.ts`,
    text: `import { b } from "./${tag}-cycle-b";\nexport const a = () => b;\n`,
  },
  {
    rule: "browser-runtime-imports-server",
    file: `app/_components/${tag}-runtime.tsx`,
    text: 'import { EventStore } from "@/server/events/store";\nexport const scratch = EventStore;\n',
  },
  {
    rule: "browser-types-from-server",
    file: `app/_components/${tag}-types.tsx`,
    text: 'import type { EventLog } from "@/server/events/log";\nexport type Scratch = EventLog;\n',
  },
  {
    rule: "server-only-marker",
    file: `server/sandbox/${tag}-marker.ts`,
    text: "export const scratch = 1;\n",
  },
];

/** The run-time graph's rules (.dependency-cruiser.runtime.cjs): what reaches the browser. */
const RUNTIME_CASES: { rule: string; file: string; text: string }[] = [
  {
    rule: "browser-reaches-server-only",
    file: `app/_components/${tag}-reaches-store.tsx`,
    text: 'import { EventStore } from "@/server/events/store";\nexport const scratch = EventStore;\n',
  },
  {
    rule: "browser-reaches-node-builtin",
    file: `app/_components/${tag}-reaches-fs.tsx`,
    text: 'import { readFileSync } from "node:fs";\nexport const scratch = readFileSync;\n',
  },
];

const CYCLE_PARTNER = {
  file: `server/domain/${tag}-cycle-b.ts`,
  text: `import { a } from "./${tag}-cycle-a";\nexport const b = () => a;\n`,
};

function layer(name: string, folder: string, above: string) {
  return {
    rule: `layer-${name}`,
    file: `${folder}/${tag}-layer.ts`,
    text: `import * as above from "${above}";\nexport const scratch = above;\n`,
  };
}

function ruleNames(config: string): string[] {
  const loaded = require(path.join(ROOT, config)) as {
    forbidden?: { name: string }[];
    required?: { name: string }[];
  };
  return [...(loaded.forbidden ?? []), ...(loaded.required ?? [])].map((rule) => rule.name);
}

/**
 * depcruise on the given files, following their imports one level only (not the whole tree: fast);
 * `follow` for a cycle, which shows only when the cruise goes round it.
 */
function cruise(config: string, files: string[], follow = false): { status: number | null; output: string } {
  const depth = follow ? [] : ["--max-depth", "1"];
  const result = spawnSync(
    path.join(ROOT, "node_modules/.bin/depcruise"),
    ["--config", config, "--output-type", "err", ...depth, ...files],
    { cwd: ROOT, encoding: "utf8" },
  );
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/**
 * The shape of the debt these rules once reported (issue #18): a domain module reaching outside the
 * domain, and a client file reaching a Node.js built-in through a chain of domain imports.
 */
const CHAIN = {
  client: {
    file: `app/_components/${tag}-chain.tsx`,
    text: `import { hashed } from "@/server/domain/${tag}-chain";\nexport const scratch = hashed;\n`,
  },
  domain: {
    file: `server/domain/${tag}-chain.ts`,
    text: 'import { createHash } from "node:crypto";\nimport { verify } from "@/server/contract/verify";\nexport const hashed = [createHash, verify];\n',
  },
};

const written = [...CASES, ...RUNTIME_CASES, CYCLE_PARTNER, CHAIN.client, CHAIN.domain];

describe("the layer gate's rules fire on a deliberately wrong import", () => {
  beforeAll(() => {
    for (const { file, text } of written) {
      mkdirSync(path.dirname(path.join(ROOT, file)), { recursive: true });
      writeFileSync(path.join(ROOT, file), text);
    }
  });
  afterAll(() => {
    for (const { file } of written) rmSync(path.join(ROOT, file), { force: true });
  });

  it("every rule of both configs has a scratch case", () => {
    expect(CASES.map((c) => c.rule).sort()).toEqual(ruleNames(".dependency-cruiser.cjs").sort());
    expect(RUNTIME_CASES.map((c) => c.rule).sort()).toEqual(
      ruleNames(".dependency-cruiser.runtime.cjs").sort(),
    );
  });

  it("every rule fails the gate: none is in report mode (severity error)", () => {
    for (const config of [".dependency-cruiser.cjs", ".dependency-cruiser.runtime.cjs"]) {
      const loaded = require(path.join(ROOT, config)) as {
        forbidden?: { name: string; severity: string }[];
        required?: { name: string; severity: string }[];
      };
      for (const rule of [...(loaded.forbidden ?? []), ...(loaded.required ?? [])])
        expect(`${rule.name}: ${rule.severity}`).toBe(`${rule.name}: error`);
    }
  });

  it("a client file reaching a Node.js built-in through the domain fails both rules it breaks", () => {
    const runtime = cruise(".dependency-cruiser.runtime.cjs", [CHAIN.client.file], true);
    expect(runtime.status).not.toBe(0);
    expect(runtime.output).toContain(`error browser-reaches-node-builtin: ${CHAIN.client.file} → crypto`);
    const imports = cruise(".dependency-cruiser.cjs", [CHAIN.domain.file]);
    expect(imports.status).not.toBe(0);
    expect(imports.output).toContain(`error layer-domain: ${CHAIN.domain.file} → server/contract/verify.ts`);
  });

  it("a clean module passes (the failures below come from the scratch imports)", () => {
    const { status, output } = cruise(".dependency-cruiser.cjs", ["server/domain/errors.ts"]);
    expect(output).toContain("no dependency violations found");
    expect(status).toBe(0);
  });

  it("every import rule fails the cruise with its name, on its scratch file", () => {
    const cycle = CASES.filter((c) => c.rule === "no-circular");
    const imports = cruise(
      ".dependency-cruiser.cjs",
      CASES.filter((c) => c.rule !== "no-circular").map((c) => c.file),
    );
    const cycles = cruise(".dependency-cruiser.cjs", [...cycle.map((c) => c.file), CYCLE_PARTNER.file], true);
    expect(imports.status).not.toBe(0);
    expect(cycles.status).not.toBe(0);
    const output = imports.output + cycles.output;
    for (const { rule, file } of CASES) expect(output).toContain(`error ${rule}: ${file}`);
  });

  it("every run-time rule fails the cruise with its name, on its scratch file", () => {
    const { status, output } = cruise(
      ".dependency-cruiser.runtime.cjs",
      RUNTIME_CASES.map((c) => c.file),
    );
    expect(status).not.toBe(0);
    for (const { rule, file } of RUNTIME_CASES) expect(output).toContain(`error ${rule}: ${file}`);
  });
});

describe("what the Prisma CLI loads", () => {
  // prisma.config.ts imports server/env.ts in the Prisma CLI, which does not resolve the "@/" alias:
  // one such import in that chain breaks `prisma migrate deploy` (and so every start), not a test.
  it("prisma.config.ts reaches server modules by relative paths only", () => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(path.join(ROOT, file), "utf8");
      for (const [, specifier] of text.matchAll(
        /^(?:import|export)\s(?:[^"';]*?\sfrom\s*)?["']([^"']+)["'];/gm,
      )) {
        expect(`${file} imports ${specifier}`).not.toMatch(/ imports @\//);
        if (specifier?.startsWith(".")) visit(path.posix.join(path.posix.dirname(file), `${specifier}.ts`));
      }
    };
    visit("prisma.config.ts");
    expect(seen).toContain("server/env.ts");
  });
});
