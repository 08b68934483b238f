import { describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { ledgerExecOf } from "@/server/governance/ledger/collect";
import { CycleLedger } from "@/server/governance/ledger/cycle-ledger";
import { PREFIX } from "@/testing/sandbox/docker";
import { SCOPED, toolSandboxSuite, WIDE } from "@/testing/sandbox/tool-sandbox-suite";
import { listWorkspace } from "./workspace-listing";

/**
 * git, shell.exec, select_active_intent, the discovery scan, the workspace cap and the trace ledger
 * through the one door, against the real Docker sandbox and a real git clone.
 */
const { box, dispatchWith, approved, sh } = toolSandboxSuite("tools-git");

describe("git tools", () => {
  it("status → add → diff → commit → log → branch → checkout, none able to rewrite history", async () => {
    const tools = dispatchWith({ policy: async () => ({ checkpoints: CheckpointPolicy.parse({}) }) });
    const ctx = { activeIntent: WIDE };
    await sh("rm -rf src notes-link && mkdir -p lib && echo 'export const v = 1;' > lib/v.ts");
    const status = await tools.run({ tool: "git.status", input: {} }, { activeIntent: null });
    expect(status.output).toMatch(/^## arbor\/tools/);
    expect(status.output).toContain("?? lib/");
    // The same facts typed, for code (repo context) that must not parse the text.
    expect(status.data).toMatchObject({ branch: expect.stringMatching(/^arbor\/tools/) });
    expect((status.data as { changes: string[] }).changes).toContain("?? lib/");
    const add = await approved(tools, { tool: "git.add", input: { paths: ["lib/v.ts"] } }, ctx);
    expect(add).toMatchObject({ status: "ok" });
    expect(add.output).toContain("A  lib/v.ts");
    const diff = await tools.run({ tool: "git.diff", input: { staged: true } }, { activeIntent: null });
    expect(diff.output).toContain("+export const v = 1;");

    const commitCall = { tool: "git.commit", input: { message: "--amend\n\nAdd v" } };
    const asked = await tools.check(commitCall, ctx);
    expect(asked).toMatchObject({ status: "ask" });
    expect(asked.preview).toContain("+export const v = 1;");
    const commit = await approved(tools, commitCall, ctx);
    expect(commit).toMatchObject({ status: "ok" });
    expect(commit.output).toMatch(/^[0-9a-f]{7,} --amend$/);
    const log = await tools.run({ tool: "git.log", input: { limit: 2 } }, { activeIntent: null });
    expect(log.output.split("\n")).toHaveLength(2);
    expect(log.output).toContain("Arbor Agent: --amend");
    expect(log.output).toContain("init");
    expect((log.data as { commits: string[] }).commits).toEqual(log.output.split("\n"));

    const nothing = await approved(tools, { tool: "git.commit", input: { message: "empty" } }, ctx);
    expect(nothing).toMatchObject({ status: "failed", error: { code: "git_failed" } });
    expect(nothing.error?.message).toContain("nothing is staged");

    expect(await approved(tools, { tool: "git.branch", input: { name: "feature/x" } }, ctx)).toMatchObject({
      status: "ok",
      output: "created branch feature/x",
    });
    expect(await approved(tools, { tool: "git.branch", input: { name: "feature/x" } }, ctx)).toMatchObject({
      status: "failed",
    });
    const checkout = await tools.check({ tool: "git.checkout", input: { branch: "feature/x" } }, ctx);
    expect(checkout).toMatchObject({ status: "ask", gate: { confirm: true } });
    expect(
      await approved(tools, { tool: "git.checkout", input: { branch: "feature/x" } }, ctx),
    ).toMatchObject({
      status: "ok",
      output: expect.stringContaining("feature/x"),
    });
    expect((await sh("git rev-parse --abbrev-ref HEAD")).trim()).toBe("feature/x");
    expect(
      await approved(tools, { tool: "git.checkout", input: { branch: "arbor/tools" } }, ctx),
    ).toMatchObject({
      status: "ok",
    });

    // The history stays: a force push or amend through the shell is refused even when approved.
    const head = await sh("git rev-parse HEAD");
    for (const command of [
      "git commit --amend -m rewritten",
      "git reset --hard HEAD~1",
      "git push --force origin HEAD",
    ]) {
      const result = await approved(tools, { tool: "shell.exec", input: { command } }, ctx);
      expect(result.status, command).toBe("denied");
    }
    expect(await sh("git rev-parse HEAD")).toBe(head);
  });

  it("asks before committing staged content that looks like a secret", async () => {
    const tools = dispatchWith();
    await sh("echo 'AWS_SECRET=AKIAIOSFODNN7EXAMPLE' > creds.txt && git add creds.txt");
    const result = await tools.run(
      { tool: "git.commit", input: { message: "creds" } },
      { activeIntent: WIDE },
    );
    expect(result).toMatchObject({ status: "ask", gate: { confirm: true } });
    expect(result.gate?.reason).toContain("secrets");
    await sh("git reset -q && rm creds.txt");
  });
});

describe("shell.exec", () => {
  it("returns output and exit codes the model can read; a timeout kills it", async () => {
    const tools = dispatchWith({ commandTimeoutMs: 1_500 });
    const ok = await tools.run(
      { tool: "shell.exec", input: { command: "echo out; echo err >&2" } },
      { activeIntent: WIDE },
    );
    expect(ok).toMatchObject({ status: "ok", exitCode: 0, output: "out\nerr\n" });
    const failed = await tools.run(
      { tool: "shell.exec", input: { command: "echo nope; exit 3" } },
      { activeIntent: WIDE },
    );
    expect(failed).toMatchObject({
      status: "failed",
      exitCode: 3,
      output: "nope\n",
      error: { code: "command_failed" },
    });
    const slow = await tools.run(
      { tool: "shell.exec", input: { command: "sleep 30" } },
      { activeIntent: WIDE },
    );
    expect(slow).toMatchObject({ status: "failed", timedOut: true, error: { code: "timeout" } });
    expect(slow.durationMs).toBeLessThan(10_000);
  });

  it("is killed at once, process tree and all, when the caller's signal aborts", async () => {
    const stop = new AbortController();
    const running = dispatchWith().run(
      { tool: "shell.exec", input: { command: "sleep 30 & sleep 30; echo never" } },
      { activeIntent: WIDE, signal: stop.signal },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = Date.now();
    stop.abort();
    const result = await running;
    expect(result).toMatchObject({ status: "failed", aborted: true, error: { code: "stopped" } });
    expect(Date.now() - started).toBeLessThan(5_000);
    // The container's own `sleep infinity` stays; both `sleep 30` are gone.
    await expect.poll(() => sh("ps -eo args | grep -c '^sleep 30$' || true"), { timeout: 5_000 }).toBe("0\n");
  });

  it("asks before an unlisted command by default and never runs it without the bound approval", async () => {
    const tools = dispatchWith({ policy: async () => ({ checkpoints: CheckpointPolicy.parse({}) }) });
    const call = { tool: "shell.exec", input: { command: "touch asked.txt" } };
    expect(await tools.run(call, { activeIntent: WIDE })).toMatchObject({ status: "ask" });
    expect(await sh("test -e asked.txt || echo absent")).toBe("absent\n");
    expect(await approved(tools, call, { activeIntent: WIDE })).toMatchObject({ status: "ok" });
    expect(await sh("test -e asked.txt && echo present")).toBe("present\n");
    await sh("rm asked.txt");
  });
});

describe("select_active_intent", () => {
  it("returns the intent's <intent_context>, or says why it cannot", async () => {
    const tools = dispatchWith();
    const none = await tools.run(
      { tool: "select_active_intent", input: { intent_id: "INT-001" } },
      { activeIntent: null },
    );
    expect(none).toMatchObject({ status: "failed", error: { code: "not_found" } });
    await box().writeFile(
      ".orchestration/active_intents.yaml",
      'active_intents:\n  - id: "INT-001"\n    name: "Auth"\n    status: "IN_PROGRESS"\n    owned_scope: ["src/auth/**"]\n',
    );
    const selected = await tools.run(
      { tool: "select_active_intent", input: { intent_id: "INT-001" } },
      { activeIntent: null },
    );
    expect(selected).toMatchObject({
      status: "ok",
      selectedIntent: { id: "INT-001", ownedScope: ["src/auth/**"] },
    });
    expect(selected.output).toContain('<intent id="INT-001" name="Auth">');
    const unknown = await tools.run(
      { tool: "select_active_intent", input: { intent_id: "INT-404" } },
      { activeIntent: null },
    );
    expect(unknown.error?.message).toBe("There is no intent INT-404 (known: INT-001).");
    await sh("rm -rf .orchestration && ln -s /etc .orchestration");
    const linked = await tools.run(
      { tool: "select_active_intent", input: { intent_id: "INT-001" } },
      { activeIntent: null },
    );
    expect(linked.status).toBe("denied");
    await sh("rm .orchestration");
  });
});

describe("intent discovery's scan", () => {
  it("lists the workspace's files and reads package.json through the tools", async () => {
    await sh(
      'mkdir -p node_modules/x && touch node_modules/x/index.js && printf \'{\\n  "name": "demo"\\n}\\n\' > package.json',
    );
    const listing = await listWorkspace(dispatchWith());
    expect(listing.files).toContain("README.md");
    expect(listing.files).toContain("package.json");
    expect(listing.files.some((file) => file.startsWith("node_modules/"))).toBe(false);
    expect(listing.packageJson).toBe('{\n  "name": "demo"\n}\n');
    await sh("rm -rf node_modules package.json");
    expect((await listWorkspace(dispatchWith())).packageJson).toBeNull();
  });
});

describe("workspace cap and trace ledger", () => {
  it("refuses a write that would take /workspace over its cap, and writes nothing", async () => {
    const used = Number((await sh("du -sb /workspace | cut -f1")).trim());
    const tools = dispatchWith({ workspaceMaxBytes: used + 1_000 });
    const big = await tools.run(
      { tool: "fs.write", input: { path: "src/big.txt", content: "x".repeat(5_000) } },
      { activeIntent: SCOPED },
    );
    expect(big).toMatchObject({ status: "failed", error: { code: "workspace_full" } });
    expect(big.error?.message).toContain("ARBOR_WORKSPACE_MAX_MB");
    expect(await sh("test -e src/big.txt || echo absent")).toBe("absent\n");
    const small = await tools.run(
      { tool: "fs.write", input: { path: "src/small.txt", content: "ok\n" } },
      { activeIntent: SCOPED },
    );
    expect(small.status).toBe("ok");
  });

  it("records a write's lines in the trace ledger", async () => {
    const ledger = new CycleLedger(ledgerExecOf(box()), { sessionId: PREFIX, modelId: "test-model" });
    const tools = dispatchWith({ ledger });
    const ids = { runId: "r1", intentionId: "i1", cycleId: "c1" };
    const result = await tools.run(
      { tool: "fs.write", input: { path: "src/traced.txt", content: "a\nb\nc\n" } },
      { activeIntent: SCOPED, traceIds: ids },
    );
    expect(result.status).toBe("ok");
    expect(result.trace.flatMap((record) => record.files.map((file) => file.path))).toEqual([
      "src/traced.txt",
    ]);
    const ranges = result.trace[0]?.files[0]?.conversations[0]?.ranges;
    expect(ranges?.map((range) => [range.start_line, range.end_line])).toEqual([[1, 3]]);
    // A read is not a change: nothing is recorded.
    const read = await tools.run(
      { tool: "fs.read", input: { path: "src/traced.txt" } },
      { activeIntent: SCOPED, traceIds: ids },
    );
    expect(read.trace).toEqual([]);
  });
});
