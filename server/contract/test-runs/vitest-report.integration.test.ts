import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EgressSettings } from "@/server/domain/vocabulary/egress";
import { DockerSandboxProvider } from "@/server/sandbox/docker-provider";
import { EgressProxy } from "@/server/sandbox/egress/egress-proxy";
import type { Sandbox } from "@/server/sandbox/types";
import { cleanUp, PREFIX, silent } from "@/testing/sandbox/docker";
import { verifyContract } from "../verify";

/**
 * A vitest project in the real sandbox image: vitest is installed from the npm registry in the setup
 * phase through the egress proxy ("Package registries only"), then, with the network off (the agent
 * phase), the check `npm test` (script `vitest run`) runs as `npm test -- --reporter=default
 * --reporter=json` and its counts are read from the JSON report on stdout. Needs root and squid.
 */
const VITEST = "4.1.12";
const registries = EgressSettings.parse({ setup: { mode: "registries" }, agent: { mode: "off" } });
const sessionId = `${PREFIX}-vitest-report`;
const proxyState = mkdtempSync(path.join(tmpdir(), "arbor-vitest-report-"));
let proxy: EgressProxy;
let provider: DockerSandboxProvider;
let box: Sandbox;

const SUM_TEST = `import { describe, expect, it } from "vitest";
import { sum } from "./sum.js";
describe("sum", () => {
  it("adds zero", () => expect(sum(5, 0)).toBe(5));
  it("adds negatives", () => expect(sum(-1, -2)).toBe(-3));
  it.skip("later", () => {});
});
`;

beforeAll(async () => {
  proxy = new EgressProxy({
    docker: new Docker(),
    instance: `${PREFIX}-vitest`,
    stateDir: proxyState,
    port: 20_000 + Math.floor(Math.random() * 20_000),
    upstream: null,
    log: silent,
  });
  provider = new DockerSandboxProvider({ logger: silent, instance: `${PREFIX}-vitest`, egress: proxy });
  box = await provider.create({ sessionId, egress: registries });
  await box.writeFile(
    "package.json",
    JSON.stringify({ name: "p", type: "module", scripts: { test: "vitest run" } }),
  );
  await box.writeFile("sum.js", "export const sum = (a, b) => a - b;\n");
  await box.writeFile("sum.test.js", SUM_TEST);
  await provider.setEgressPhase(sessionId, "setup", registries);
  const install = await box.exec(
    `npm install --save-dev --save-exact vitest@${VITEST} --no-audit --no-fund --loglevel=error`,
    { timeoutMs: 300_000 },
  );
  if (install.exitCode !== 0) throw new Error(`npm install vitest failed: ${install.stderr}`);
  await provider.setEgressPhase(sessionId, "agent", registries);
}, 600_000);

afterAll(async () => {
  await box?.dispose();
  await cleanUp(provider);
  await proxy?.destroy();
  rmSync(proxyState, { recursive: true, force: true });
});

const exec = (command: string) => box.exec(command, { timeoutMs: 120_000, maxOutputBytes: 64 * 1024 });

describe("a vitest check's JSON report", () => {
  it("npm test runs with vitest's JSON reporter: counts and the failing test's name from the report", async () => {
    const [result] = await verifyContract(exec, [{ kind: "TESTS_PASS", command: "npm test" }], {
      testScript: "vitest run",
      framework: "vitest",
    });
    expect(result?.passed).toBe(false);
    expect(result?.tests).toEqual({
      runner: "vitest",
      passed: 1,
      failed: 1,
      skipped: 1,
      total: 3,
      failingTests: ["sum > adds negatives"],
      source: "reporter",
    });
    expect(result?.evidence).toContain(
      "`npm test -- --reporter=default --reporter=json` failed: 1 passed, 1 failed, 1 skipped",
    );
  });

  it("after the fix, it passes with its counts; a filter that matches nothing is not a pass", async () => {
    await box.writeFile("sum.js", "export const sum = (a, b) => a + b;\n");
    const [fixed] = await verifyContract(exec, [{ kind: "TESTS_PASS", command: "npx vitest run" }]);
    expect(fixed?.evidence.split("\n")[0]).toBe(
      "`npx vitest run --reporter=default --reporter=json` exited 0: 2 passed, 0 failed, 1 skipped",
    );
    expect(fixed?.passed).toBe(true);
    expect(fixed?.tests).toMatchObject({ passed: 2, failed: 0, skipped: 1, source: "reporter" });
    const [none] = await verifyContract(exec, [
      { kind: "TESTS_PASS", command: "npx vitest run --passWithNoTests nothing-matches" },
    ]);
    expect(none?.passed).toBe(false);
    expect(none?.evidence.split("\n")[0]).toContain("not a pass: ran 0 tests");
  });
});
