import "server-only";
import type { ToolchainVersion } from "@/server/domain/events/bodies/sandbox";
import type { Sandbox } from "./types";

/**
 * The toolchains a session's sandbox has, asked in one exec: every `--version` runs in parallel
 * (the slowest, npm, takes ~0.3 s), each under its own time limit, and a missing tool prints an
 * empty line instead of failing the probe. Corepack's pnpm and yarn are asked with
 * COREPACK_ENABLE_NETWORK=0 so the probe never downloads anything: a package manager the image has
 * not fetched yet shows as "not fetched" rather than being installed as a side effect.
 *
 * A fixed command, not an agent action (so it does not pass the tool dispatch), run by the system
 * when the sandbox is acquired.
 */
export const TOOLCHAIN_PROBES: ReadonlyArray<{ name: string; argv: string }> = [
  { name: "node", argv: "node --version" },
  { name: "npm", argv: "npm --version" },
  { name: "corepack", argv: "corepack --version" },
  { name: "pnpm", argv: "pnpm --version" },
  { name: "yarn", argv: "yarn --version" },
  { name: "python3", argv: "python3 --version" },
  { name: "pip", argv: "python3 -m pip --version" },
  { name: "git", argv: "git --version" },
  { name: "gcc", argv: "gcc -dumpfullversion" },
];

export const TOOLCHAIN_PROBE_SCRIPT = [
  "d=$(mktemp -d) || exit 0",
  'p() { n=$1; shift; { v=$(COREPACK_ENABLE_NETWORK=0 timeout 10 "$@" 2>/dev/null </dev/null | head -n1); printf \'%s\\t%s\\n\' "$n" "$v" > "$d/$n"; } & }',
  ...TOOLCHAIN_PROBES.map((probe) => `p ${probe.name} ${probe.argv}`),
  "wait",
  'cat "$d"/* 2>/dev/null',
  'rm -rf "$d"',
].join("\n");

/** `name<TAB>output` lines → one entry per probe, in the probes' order, version or null. */
export function parseToolchainVersions(stdout: string): ToolchainVersion[] {
  const found = new Map<string, string>();
  for (const line of stdout.split("\n")) {
    const tab = line.indexOf("\t");
    if (tab < 0) continue;
    found.set(line.slice(0, tab), line.slice(tab + 1));
  }
  return TOOLCHAIN_PROBES.map(({ name }) => ({ name, version: versionIn(found.get(name) ?? "") }));
}

/** The first dotted version number in what a tool printed ("Python 3.11.2" → "3.11.2", "v24.1.0" → "24.1.0"). */
function versionIn(output: string): string | null {
  const match = /\d+(?:\.\d+)+(?:[-+][0-9A-Za-z.-]+)?/.exec(output);
  return match ? match[0].slice(0, 80) : null;
}

/** Probes the sandbox; a probe that cannot run at all gives every tool as unknown, never an error. */
export async function probeToolchains(sandbox: Pick<Sandbox, "exec">): Promise<ToolchainVersion[]> {
  try {
    const result = await sandbox.exec(TOOLCHAIN_PROBE_SCRIPT, { timeoutMs: 20_000, maxOutputBytes: 16_384 });
    return parseToolchainVersions(result.stdout);
  } catch {
    return parseToolchainVersions("");
  }
}
