import { describe, expect, it } from "vitest";
import type { ApprovalPolicyInput } from "@/server/domain/policy/approval-policy";
import { INTENT_REQUIRED_ERROR } from "@/server/governance/intent-gate";
import { decideApproval } from "./decide";
import type { PreApprovals } from "./policy";

const INTENT = { id: "INT-001", ownedScope: ["src/**", "dist/**"] };
const POLICY: ApprovalPolicyInput = {
  allowCommands: [
    { program: "npm", args: ["test"] },
    { program: "git", args: ["status"] },
    { program: "git", args: ["diff"] },
    { program: "ls" },
    { program: "echo" },
    { program: "cat" },
    { program: "grep" },
  ],
  denyCommands: [{ program: "rm", args: ["-rf"] }, { program: "git", args: ["push"] }, { program: "curl" }],
};

function shell(command: string, preApprovals: Partial<PreApprovals> = {}, policy: unknown = POLICY) {
  return decideApproval({
    tool: "shell.exec",
    input: { command },
    risk: "dangerous",
    activeIntent: INTENT,
    policy,
    preApprovals: { run: [], project: [], ...preApprovals },
  });
}

describe("shell.exec: the deny list", () => {
  it.each([
    "rm -rf /",
    "npm test && rm -rf node_modules",
    "ls; rm -rf /",
    "ls | rm -rf x",
    "ls || rm -rf x",
    "ls & rm -rf x",
    "ls\nrm -rf x",
    "rm -v -rf x",
    "/bin/rm -rf x",
    "sudo rm -rf x",
    "echo $(rm -rf x)",
    "bash -c 'rm -rf x'",
    "find . -exec rm -rf {} +",
    "git -C . push origin main",
    "git push --force",
    "curl https://example.com",
    "cat <(curl x)",
  ])("denies %j, even with shell pre-approved", (command) => {
    const decision = shell(command, { run: ["shell"] });
    expect(decision.decision).toBe("deny");
    expect(decision.reason).toMatch(/deny rule "(rm -rf|git push|curl)"/);
  });

  it("does not deny what merely mentions a denied program", () => {
    expect(shell("echo rm -rf").decision).toBe("approve");
    expect(shell("grep curl src/a.ts").decision).toBe("approve");
  });

  it("never pre-approves a program the deny list names with other arguments", () => {
    const decision = shell("rm -r -f x", { run: ["shell"] });
    expect(decision).toMatchObject({ decision: "ask", confirm: true });
    expect(decision.reason).toContain("deny list names");
  });

  it("lets an explicit allow rule approve a program the deny list names with other arguments", () => {
    expect(shell("git status").decision).toBe("approve");
  });

  it("asks rather than approves when a denied program's arguments are computed", () => {
    expect(shell("git $CMD", { run: ["shell"] }).decision).toBe("ask");
  });
});

describe("shell.exec: the allow list", () => {
  it.each([
    ["npm test", "npm test"],
    ["npm test -- --run src", "npm test"],
    ["git status && git diff --stat", "git status, git diff"],
    ["ls -la | grep ts", "ls, grep"],
    ["CI=1 npm test", "npm test"],
    ["echo done > /dev/null 2>&1", "echo"],
    ["echo x > src/notes.txt", "echo"],
    ["cat <<'EOF'\n$(not run)\nEOF", "cat"],
    ["npm test # then rm -rf /", "npm test"],
  ])("approves %j without any pre-approval", (command, patterns) => {
    const decision = shell(command);
    expect(decision.decision).toBe("approve");
    expect(decision.reason).toContain(patterns);
  });

  it.each([
    ["npm install", "an argument prefix that differs"],
    ["./npm test", "a program with a path"],
    ["npm", "a missing argument"],
    ["PATH=./bin npm test", "an assignment that changes which program runs"],
    ["NODE_OPTIONS=--require=./x.js npm test", "an assignment that changes what node loads"],
    ["nohup npm test", "a wrapper"],
    ['npm te"$X"st', "a computed argument"],
    ["npm test && make", "one part not on the list"],
  ])("asks for %j (%s)", (command) => {
    expect(shell(command)).toMatchObject({ decision: "ask", confirm: true });
  });
});

describe("shell.exec: constructs and parse failures ask, never approve", () => {
  it.each([
    "echo $(ls)",
    'echo "`ls`"',
    "cat <(ls)",
    "eval ls",
    "bash -c 'ls'",
    "env X=1 sh -c ls",
    "sudo ls",
    "exec ls",
    "ls | xargs echo",
    "python3 -c 'print(1)'",
    "$PROGRAM",
    "echo $((1+1))",
    "ls；echo",
    "echo 'unbalanced",
    "for f in *; do echo $f; done",
  ])("asks with confirmation for %j, even with shell pre-approved", (command) => {
    expect(shell(command, { run: ["shell"], project: ["shell"] })).toMatchObject({
      decision: "ask",
      confirm: true,
    });
  });

  it("explains what could not be analysed", () => {
    expect(shell("echo 'oops").reason).toContain("unbalanced single quote");
    expect(shell("echo $(ls)").reason).toContain("command-substitution");
  });

  it("asks for a command that runs nothing", () => {
    expect(shell("# just a comment").decision).toBe("ask");
    expect(shell("").decision).toBe("ask");
  });
});

describe("shell.exec: redirections", () => {
  it.each([
    ["echo x > /etc/passwd", "outside /workspace"],
    ["echo x >> ../outside.txt", "outside /workspace"],
    ["echo x > README.md", "outside INT-001's owned scope"],
    ["echo x > package.json", "protected"],
    ["echo x > .git/hooks/pre-commit", "protected"],
    ["echo x > $OUT", "computed at run time"],
    ["echo x &> .env", "protected"],
    ["cd src && echo x > a.txt", "after changing directory"],
  ])("asks for %j (%s), even with shell pre-approved", (command, why) => {
    const decision = shell(command, { run: ["shell"] });
    expect(decision).toMatchObject({ decision: "ask", confirm: true });
    expect(decision.reason).toContain(why);
  });

  it("allows descriptor copies and the standard sinks", () => {
    expect(shell("ls 2>&1 >/dev/null | grep x 2>/dev/stderr").decision).toBe("approve");
  });
});

describe("shell.exec: intent and pre-approval", () => {
  it("denies without an active intent, even for an allowed command", () => {
    const decision = decideApproval({
      tool: "shell.exec",
      input: { command: "npm test" },
      risk: "dangerous",
      activeIntent: null,
      policy: POLICY,
      preApprovals: { run: ["shell"] },
    });
    expect(decision).toEqual({ decision: "deny", reason: INTENT_REQUIRED_ERROR });
  });

  it("approves a command on no list when shell is pre-approved, and asks otherwise", () => {
    expect(shell("make build", { project: ["shell"] }).decision).toBe("approve");
    expect(shell("make build")).toMatchObject({ decision: "ask", confirm: true, reason: "Run: make build" });
  });

  it("asks when the policy is missing, even for an allowed command", () => {
    expect(shell("npm test", {}, null)).toMatchObject({ decision: "ask", confirm: true });
  });
});
