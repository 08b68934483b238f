import { describe, expect, it } from "vitest";
import type { ApprovalPolicyInput } from "@/server/domain/policy/approval-policy";
import { TOOL_NAMES, TOOL_SPECS, type ToolName } from "@/server/domain/tools/catalogue";
import { RISK_CLASSES, type RiskClass } from "@/server/domain/tools/risk";
import { INTENT_REQUIRED_ERROR } from "@/server/governance/intent-gate";
import { detectSecrets } from "@/server/governance/secrets";
import { type ApprovalRequest, decideApproval } from "./decide";

const INTENT = { id: "INT-001", ownedScope: ["src/auth/**", "src/middleware/jwt.ts"] };
const EMPTY_POLICY: ApprovalPolicyInput = {};

/** An input for each tool that is in scope, not protected, on no list and not pre-approvable by scope. */
const SAMPLE_INPUT: Record<ToolName, unknown> = {
  "fs.read": { path: "src/auth/login.ts" },
  "fs.list": { path: "src/auth" },
  "fs.search": { pattern: "token" },
  "fs.write": { path: "src/auth/login.ts", content: "export {}" },
  "fs.edit": { path: "src/auth/login.ts", search: "a", replace: "b" },
  "fs.delete": { path: "src/auth/old.ts" },
  "git.status": {},
  "git.diff": {},
  "git.log": {},
  "git.add": { paths: ["src/auth/login.ts"] },
  "git.commit": { message: "Add login" },
  "git.branch": { name: "feature" },
  "git.checkout": { ref: "main" },
  "shell.exec": { command: "make build" },
  select_active_intent: { intent_id: "INT-001" },
  "setup.run": { command: "npm ci" },
};

function request(overrides: Partial<ApprovalRequest> & { tool: ToolName }): ApprovalRequest {
  return {
    input: SAMPLE_INPUT[overrides.tool],
    risk: TOOL_SPECS[overrides.tool].risk,
    activeIntent: INTENT,
    policy: EMPTY_POLICY,
    preApprovals: { run: [], project: [] },
    ...overrides,
  };
}

const ORDER: RiskClass[] = [...RISK_CLASSES];
const stricter = (a: RiskClass, b: RiskClass) => (ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b);

/** The rules of the gate as a table: seed 003 for intents, seed 004 for risk and pre-approval. */
function expected(risk: RiskClass, hasIntent: boolean, preApproved: PreApprovedFor, tool?: ToolName) {
  if (risk === "safe") return { decision: "approve" };
  if (!hasIntent) return { decision: "deny", reason: INTENT_REQUIRED_ERROR };
  // The setup command: no pre-approval ever covers it, only the person's bound approval.
  if (tool === "setup.run") return { decision: "ask", confirm: true };
  if (preApproved === "project") return { decision: "approve" };
  // A run's pre-approval (granted on one card) never covers a dangerous call.
  if (preApproved === "run" && risk === "moderate") return { decision: "approve" };
  return risk === "dangerous" ? { decision: "ask", confirm: true } : { decision: "ask", confirm: undefined };
}

/** What a tool may declare: each real class, a made-up one and nothing at all. */
const DECLARED_RISKS: ReadonlyArray<RiskClass | "catastrophic" | undefined> = [
  ...RISK_CLASSES,
  "catastrophic",
  undefined,
];

type PreApprovedFor = "none" | "run" | "project";
const PRE_APPROVED_FOR: PreApprovedFor[] = ["none", "run", "project"];

describe("decideApproval: every tool × declared risk × intent × pre-approval", () => {
  const cells = TOOL_NAMES.flatMap((tool) =>
    DECLARED_RISKS.flatMap((declared) =>
      [true, false].flatMap((hasIntent) =>
        PRE_APPROVED_FOR.map((preApproved) => ({ tool, declared, hasIntent, preApproved })),
      ),
    ),
  );

  it("has 480 cells", () => {
    expect(cells).toHaveLength(480);
  });

  it.each(cells)("$tool declared $declared, intent $hasIntent, pre-approved $preApproved", (cell) => {
    const { tool, declared, hasIntent, preApproved } = cell;
    const category = TOOL_SPECS[tool].category;
    const decision = decideApproval(
      request({
        tool,
        risk: declared,
        activeIntent: hasIntent ? INTENT : null,
        preApprovals: {
          run: preApproved === "run" ? [category] : [],
          project: preApproved === "project" ? [category] : [],
        },
      }),
    );
    if (declared === undefined || declared === "catastrophic") {
      expect(decision.decision).toBe("deny");
      expect(decision.reason).toContain("unknown risk class");
      return;
    }
    const want = expected(stricter(TOOL_SPECS[tool].risk, declared), hasIntent, preApproved, tool);
    expect(decision.decision).toBe(want.decision);
    if ("reason" in want) expect(decision.reason).toBe(want.reason);
    if ("confirm" in want) expect(decision.confirm).toBe(want.confirm);
  });

  it("counts a project-wide pre-approval like a run one", () => {
    const decision = decideApproval(
      request({ tool: "fs.write", preApprovals: { run: [], project: ["write"] } }),
    );
    expect(decision.decision).toBe("approve");
  });

  it("names the run's pre-approval and who granted it", () => {
    const decision = decideApproval(
      request({ tool: "fs.edit", preApprovals: { run: ["write"], runGrantedBy: { write: "Ada" } } }),
    );
    expect(decision).toEqual({
      decision: "approve",
      reason: "write tools are pre-approved for this run by Ada.",
    });
  });

  it.each(["fs.delete", "git.checkout"] as const)(
    "still asks with confirmation for the dangerous %s when only the run pre-approved its category",
    (tool) => {
      const preApprovals = {
        run: ["write", "git-write"],
        runGrantedBy: { write: "Ada", "git-write": "Ada" },
      };
      expect(decideApproval(request({ tool, preApprovals }))).toMatchObject({
        decision: "ask",
        confirm: true,
      });
    },
  );

  it("refuses a malformed grantor record (fail closed: ask)", () => {
    const preApprovals = { run: ["write"], runGrantedBy: { everything: "Ada" } };
    expect(decideApproval(request({ tool: "fs.write", preApprovals })).decision).toBe("ask");
  });

  it("does not let one category's pre-approval cover another", () => {
    const decision = decideApproval(
      request({ tool: "git.commit", preApprovals: { run: ["write", "shell"] } }),
    );
    expect(decision).toEqual({ decision: "ask", reason: "git.commit needs approval." });
  });
});

describe("decideApproval: fails closed on what it does not know", () => {
  it.each(["fs.rm", "constructor", "__proto__", "", "FS.WRITE"])("denies the unknown tool %j", (tool) => {
    const decision = decideApproval({ ...request({ tool: "fs.read" }), tool });
    expect(decision.decision).toBe("deny");
    expect(decision.reason).toContain("Unknown tool");
  });

  it.each([
    ["fs.write", { content: "x" }],
    ["fs.write", { path: 42 }],
    ["git.add", { paths: [] }],
    ["shell.exec", { cmd: "ls" }],
    ["fs.read", null],
  ] as const)("denies %s with input %j that lacks what the gate checks", (tool, input) => {
    expect(decideApproval(request({ tool, input })).decision).toBe("deny");
  });

  it.each([undefined, null, "allow all", { denyComands: [] }, { allowCommands: [{ program: "/bin/ls" }] }])(
    "asks when the policy is %j, even for a safe tool",
    (policy) => {
      expect(decideApproval(request({ tool: "fs.read", policy })).decision).toBe("ask");
      expect(decideApproval(request({ tool: "fs.delete", policy }))).toMatchObject({
        decision: "ask",
        confirm: true,
      });
    },
  );

  it.each([undefined, ["write"], { run: ["everything"] }, { run: [], project: [], extra: 1 }])(
    "asks when the pre-approvals are %j",
    (preApprovals) => {
      expect(decideApproval(request({ tool: "fs.write", preApprovals })).decision).toBe("ask");
    },
  );

  it("still denies a mutating tool without intent when the policy is broken", () => {
    const decision = decideApproval(request({ tool: "fs.write", policy: undefined, activeIntent: null }));
    expect(decision).toEqual({ decision: "deny", reason: INTENT_REQUIRED_ERROR });
  });
});

describe("decideApproval: scope guard", () => {
  it("denies a write outside owned_scope with seed 003's text", () => {
    const decision = decideApproval(request({ tool: "fs.write", input: { path: "src/billing/invoice.ts" } }));
    expect(decision).toEqual({
      decision: "deny",
      reason: "Scope Violation: INT-001 is not authorized to edit src/billing/invoice.ts",
    });
  });

  it.each([
    "src/auth/../billing/x.ts",
    "./src/billing/x.ts",
    "/workspace/src/billing/x.ts",
    "src//billing/x.ts",
  ])("judges %s by its normalised path", (path) => {
    const decision = decideApproval(request({ tool: "fs.edit", input: { path } }));
    expect(decision.reason).toBe("Scope Violation: INT-001 is not authorized to edit src/billing/x.ts");
  });

  it("denies a path that matches owned_scope only when case is ignored", () => {
    const decision = decideApproval(request({ tool: "fs.write", input: { path: "SRC/auth/x.ts" } }));
    expect(decision.decision).toBe("deny");
    expect(decision.reason).toContain("letter case");
  });

  it.each(["../etc/passwd", "/etc/passwd", "/workspace/../etc/x", "a\0b", "src/auth/%2e%2e/x"])(
    "denies %j for every tool, reads included",
    (path) => {
      expect(decideApproval(request({ tool: "fs.read", input: { path } })).decision).toBe("deny");
      expect(decideApproval(request({ tool: "fs.write", input: { path } })).decision).toBe("deny");
    },
  );

  it("lets reads outside owned_scope through: the scope limits writes", () => {
    expect(decideApproval(request({ tool: "fs.read", input: { path: "README.md" } })).decision).toBe(
      "approve",
    );
  });

  it("checks every path of git.add", () => {
    const input = { paths: ["src/auth/a.ts", "src/billing/b.ts"] };
    expect(decideApproval(request({ tool: "git.add", input })).reason).toContain("src/billing/b.ts");
  });
});

describe("decideApproval: protected paths, secrets and approved scopes", () => {
  const everywhere = { id: "INT-002", ownedScope: ["**"] };
  const allPre = { run: ["write", "git-write", "shell"] };

  it.each([
    "package.json",
    ".github/workflows/new.yml",
    ".git/hooks/pre-commit",
    ".env.local",
    ".husky/pre-push",
    ".arbor/Dockerfile",
    // The repository's settings layer (issue #20.3): changes what later runs may do.
    ".arbor/config.yaml",
    ".devcontainer/devcontainer.json",
    "AGENTS.md",
    "packages/api/CLAUDE.md",
  ])("asks with confirmation for %s even in scope, pre-approved, and before it exists", (path) => {
    const decision = decideApproval(
      request({ tool: "fs.write", input: { path }, activeIntent: everywhere, preApprovals: allPre }),
    );
    expect(decision).toMatchObject({ decision: "ask", confirm: true });
    expect(decision.reason).toContain("protected");
  });

  it.each([
    "cp /tmp/Dockerfile .arbor/Dockerfile",
    "cd .devcontainer && sed -i s/a/b/ devcontainer.json",
    "git checkout main -- .arbor/Dockerfile",
    "tee /workspace/.arbor/Dockerfile",
    "tee .arbor/config.yaml",
  ])("asks for a command naming the image folders under pre-approved commands (never ask): %s", (command) => {
    const decision = decideApproval(
      request({
        tool: "shell.exec",
        input: { command },
        activeIntent: everywhere,
        preApprovals: { run: [], project: ["shell", "write"] },
        policy: {
          allowCommands: [
            { program: "cp" },
            { program: "cd" },
            { program: "sed" },
            { program: "tee" },
            { program: "git" },
          ],
        },
      }),
    );
    expect(decision).toMatchObject({ decision: "ask", confirm: true });
    expect(decision.reason).toContain("sandbox image");
  });

  it("asks when the content holds secrets, whatever was pre-approved", () => {
    const secretFindings = detectSecrets("const key = 'AKIAIOSFODNN7EXAMPLE';");
    const decision = decideApproval(request({ tool: "git.commit", preApprovals: allPre, secretFindings }));
    expect(decision).toMatchObject({ decision: "ask", confirm: true });
    expect(decision.reason).toContain("aws-access-key-id");
    expect(decision.reason).not.toContain("AKIAIOSFODNN7EXAMPLE");
  });

  const scoped = (checkStatus: "green" | "red" | "unknown", approveWhenCheckUnknown = false) => ({
    approvedScopes: [{ ownedScope: ["src/auth/**"], checkId: "auth-tests", checkStatus }],
    approveWhenCheckUnknown,
  });

  it.each([
    ["green", false, "approve"],
    ["unknown", false, "ask"],
    ["unknown", true, "approve"],
    ["red", false, "ask"],
    ["red", true, "ask"],
  ] as const)(
    "a write inside an approved scope whose check is %s (unknown approves: %s) → %s",
    (status, flag, want) => {
      const decision = decideApproval(request({ tool: "fs.write", policy: scoped(status, flag) }));
      expect(decision.decision).toBe(want);
      expect(decision.reason).toContain("auth-tests");
    },
  );

  it("asks for a write outside every approved scope", () => {
    const decision = decideApproval(
      request({ tool: "fs.write", input: { path: "src/middleware/jwt.ts" }, policy: scoped("green") }),
    );
    expect(decision).toMatchObject({ decision: "ask" });
    expect(decision.reason).toContain("outside every approved scope");
  });

  it("approves when any scope covering the path is green", () => {
    const policy = {
      approvedScopes: [
        { ownedScope: ["src/**"], checkId: "all", checkStatus: "red" },
        { ownedScope: ["src/auth/**"], checkId: "auth", checkStatus: "green" },
      ],
    };
    expect(decideApproval(request({ tool: "git.add", policy })).decision).toBe("approve");
  });

  it("never approves a dangerous delete through an approved scope alone", () => {
    expect(decideApproval(request({ tool: "fs.delete", policy: scoped("green") }))).toMatchObject({
      decision: "ask",
      confirm: true,
    });
  });

  it("judges the real paths behind links too", () => {
    const everywhere = { id: "INT-002", ownedScope: ["**"] };
    const linked = request({
      tool: "fs.write",
      input: { path: "src/config.json" },
      activeIntent: everywhere,
      preApprovals: { run: ["write"] },
      realPaths: ["package.json"],
    });
    expect(decideApproval(linked)).toMatchObject({ decision: "ask", confirm: true });
    const outside = request({ tool: "fs.write", realPaths: ["/workspace/src/billing/x.ts"] });
    expect(decideApproval(outside).reason).toBe(
      "Scope Violation: INT-001 is not authorized to edit src/billing/x.ts",
    );
  });
});
