import { describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { detectSecrets } from "@/server/governance/secrets";
import { TOOLS } from "./registry";
import { type GatePolicy, gateToolCall } from "./tool-gate";

const INTENT = { id: "INT-001", ownedScope: ["src/**"] };
const policy = (
  overrides: Omit<Partial<GatePolicy>, "checkpoints"> & { checkpoints?: object } = {},
): GatePolicy => ({
  ...overrides,
  checkpoints: CheckpointPolicy.parse(overrides.checkpoints ?? {}),
});

function gate(
  tool: keyof typeof TOOLS,
  input: unknown,
  options: { policy?: GatePolicy; intent?: typeof INTENT | null; content?: string } = {},
) {
  const definition = TOOLS[tool] as never;
  const parsed = TOOLS[tool].input.parse(input);
  const path = (parsed as { path?: string }).path;
  return gateToolCall({
    tool: definition,
    input: parsed,
    activeIntent: options.intent === undefined ? INTENT : options.intent,
    policy: options.policy ?? policy(),
    realPaths: [],
    secretFindings: options.content === undefined ? [] : detectSecrets(options.content, { fileName: path }),
  });
}

describe("the dispatch's approval stage", () => {
  it("lets safe tools through without a click or an intent", () => {
    for (const [tool, input] of [
      ["fs.read", { path: "README.md" }],
      ["fs.list", {}],
      ["fs.search", { pattern: "x" }],
      ["git.status", {}],
      ["git.diff", { staged: true }],
      ["git.log", {}],
      ["select_active_intent", { intent_id: "INT-001" }],
    ] as const)
      expect(gate(tool, input, { intent: null }).decision, tool).toBe("approve");
  });

  it("denies a mutating tool without an intent, with seed 003's words", () => {
    expect(gate("fs.write", { path: "src/a.ts", content: "x" }, { intent: null })).toEqual({
      decision: "deny",
      reason: "Error: You must call select_active_intent before writing files.",
    });
    expect(gate("shell.exec", { command: "ls" }, { intent: null }).decision).toBe("deny");
  });

  it("asks for moderate writes (no confirmation) and confirms dangerous ones", () => {
    expect(gate("fs.write", { path: "src/a.ts", content: "x" })).toMatchObject({ decision: "ask" });
    expect(gate("fs.write", { path: "src/a.ts", content: "x" }).confirm).toBeUndefined();
    expect(gate("fs.edit", { path: "src/a.ts", search: "a", replace: "b" }).decision).toBe("ask");
    expect(gate("git.add", { paths: ["src/a.ts"] }).decision).toBe("ask");
    expect(gate("git.commit", { message: "m" }).decision).toBe("ask");
    expect(gate("fs.delete", { path: "src/a.ts" })).toMatchObject({ decision: "ask", confirm: true });
    expect(gate("git.checkout", { branch: "main" })).toMatchObject({ decision: "ask", confirm: true });
    expect(gate("shell.exec", { command: "npm test" })).toMatchObject({ decision: "ask", confirm: true });
  });

  it("refuses writes outside the owned scope with seed 003's words", () => {
    expect(gate("fs.write", { path: "docs/a.md", content: "x" }).reason).toBe(
      "Scope Violation: INT-001 is not authorized to edit docs/a.md",
    );
  });

  it("asks for protected paths even when the write category is pre-approved", () => {
    const everything = policy({ preApproved: { project: ["write", "git-write", "shell"] } });
    const wide = { id: "INT-001", ownedScope: ["**"] };
    for (const path of [
      "package.json",
      ".git/hooks/pre-commit",
      ".orchestration/active_intents.yaml",
      ".env",
    ])
      expect(
        gate("fs.write", { path, content: "x" }, { policy: everything, intent: wide }),
        path,
      ).toMatchObject({
        decision: "ask",
        confirm: true,
      });
    expect(gate("fs.write", { path: "src/a.ts", content: "x" }, { policy: everything }).decision).toBe(
      "approve",
    );
  });

  it("approves writes inside a scope approved with a decomposition while its check is green", () => {
    const scoped = (checkStatus: "green" | "red") =>
      policy({ approvedScopes: [{ ownedScope: ["src/**"], checkId: "c1", checkStatus }] });
    expect(gate("fs.write", { path: "src/a.ts", content: "x" }, { policy: scoped("green") }).decision).toBe(
      "approve",
    );
    expect(gate("fs.write", { path: "src/a.ts", content: "x" }, { policy: scoped("red") }).decision).toBe(
      "ask",
    );
  });

  it("asks when content looks like a secret", () => {
    const everything = policy({ preApproved: { run: ["write"] } });
    expect(
      gate(
        "fs.write",
        { path: "src/a.ts", content: "const key = 'AKIAIOSFODNN7EXAMPLE';" },
        { policy: everything, content: "const key = 'AKIAIOSFODNN7EXAMPLE';" },
      ),
    ).toMatchObject({ decision: "ask", confirm: true });
  });

  it("asks before every change when the project asks before every command", () => {
    const always = policy({ checkpoints: { commands: "ask-always" }, preApproved: { run: ["write"] } });
    expect(gate("fs.write", { path: "src/a.ts", content: "x" }, { policy: always }).decision).toBe("ask");
    expect(gate("fs.read", { path: "src/a.ts" }, { policy: always }).decision).toBe("approve");
  });

  it("keeps the command gate's rules for shell.exec and refuses history rewrites outright", () => {
    expect(gate("shell.exec", { command: "git status" }).decision).toBe("approve");
    const never = policy({ checkpoints: { commands: "never-ask" } });
    expect(gate("shell.exec", { command: "npm test" }, { policy: never }).decision).toBe("approve");
    expect(gate("shell.exec", { command: "git push --force" }, { policy: never })).toMatchObject({
      decision: "deny",
      reason: expect.stringContaining("No tool may force-push or rewrite git history"),
    });
    expect(gate("shell.exec", { command: "git commit --amend -m x" }, { policy: never }).decision).toBe(
      "deny",
    );
  });

  it("reads the project's pre-approved categories from its checkpoint policy", () => {
    const pre = policy({ checkpoints: { preApproved: ["write"] } });
    expect(gate("fs.write", { path: "src/a.ts", content: "x" }, { policy: pre }).decision).toBe("approve");
    expect(gate("git.add", { paths: ["src/a.ts"] }, { policy: pre }).decision).toBe("ask");
    expect(gate("fs.write", { path: "src/a.ts", content: "x" }).decision).toBe("ask");
  });
});
