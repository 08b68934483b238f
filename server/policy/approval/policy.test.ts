import { describe, expect, it } from "vitest";
import { ApprovalPolicy, type CommandPattern } from "@/server/domain/policy/approval-policy";
import { type CommandPart, splitShellCommand } from "@/server/domain/shell/split";
import { isPreApproved, matchAllowList, matchDenyList, NO_PRE_APPROVALS, PreApprovals } from "./policy";

function parts(command: string): CommandPart[] {
  const result = splitShellCommand(command);
  if (!result.ok) throw new Error(result.reason);
  return result.parts;
}

function firstPart(command: string): CommandPart {
  const [part] = parts(command);
  if (!part) throw new Error(`no part in ${command}`);
  return part;
}

describe("ApprovalPolicy schema", () => {
  it("fills defaults for an empty policy", () => {
    expect(ApprovalPolicy.parse({})).toEqual({
      allowCommands: [],
      denyCommands: [],
      approvedScopes: [],
      approveWhenCheckUnknown: false,
    });
  });

  it.each([
    ["a misspelt key", { denyComands: [{ program: "rm" }] }],
    ["a program with a path", { allowCommands: [{ program: "/bin/ls" }] }],
    ["a program with spaces", { allowCommands: [{ program: "npm test" }] }],
    ["an empty argument", { allowCommands: [{ program: "npm", args: [""] }] }],
    ["a scope without globs", { approvedScopes: [{ ownedScope: [], checkId: "c", checkStatus: "green" }] }],
    [
      "an unknown check status",
      { approvedScopes: [{ ownedScope: ["a"], checkId: "c", checkStatus: "amber" }] },
    ],
  ])("rejects %s", (_, policy) => {
    expect(ApprovalPolicy.safeParse(policy).success).toBe(false);
  });

  it("rejects unknown categories and keys in pre-approvals", () => {
    expect(PreApprovals.safeParse({ run: ["all"] }).success).toBe(false);
    expect(PreApprovals.safeParse({ session: ["write"] }).success).toBe(false);
    expect(PreApprovals.parse({ project: ["shell"] })).toEqual({
      run: [],
      project: ["shell"],
      runGrantedBy: {},
    });
  });

  it("pre-approves a category from either the run or the project", () => {
    expect(isPreApproved({ run: ["write"], project: [] }, "write")).toBe(true);
    expect(isPreApproved({ run: [], project: ["write"] }, "write")).toBe(true);
    expect(isPreApproved(NO_PRE_APPROVALS, "write")).toBe(false);
  });
});

describe("matchDenyList over-matches", () => {
  const deny: CommandPattern[] = [
    { program: "rm", args: ["-rf"] },
    { program: "git", args: ["push", "--force"] },
  ];
  const level = (command: string) =>
    parts(command).flatMap((part) => part.executes.map((program) => matchDenyList(program, deny).level));

  it.each([
    ["rm -rf /", ["denied"]],
    ["/usr/bin/rm -v -rf /", ["denied"]],
    ["git -C . push origin --force", ["denied"]],
    ["git pu\"sh\" --for'ce'", ["denied"]],
    ["rm -r -f /", ["near"]],
    ["git push", ["near"]],
    ["git $SUB --force", ["near"]],
    ["$X -rf", ["near"]],
    ["ls -rf", ["clear"]],
    ["RM -rf", ["clear"]],
  ])("%j → %j", (command, expected) => {
    expect(level(command)).toEqual(expected);
  });

  it("has nothing to match with an empty deny list, computed programs included", () => {
    const [program] = firstPart("$X").executes;
    if (!program) throw new Error("no program");
    expect(matchDenyList(program, []).level).toBe("clear");
  });
});

describe("matchAllowList under-matches", () => {
  const allow: CommandPattern[] = [
    { program: "npm", args: ["run", "test"] },
    { program: "ls", args: [] },
  ];
  it.each([
    ["npm run test", "npm"],
    ["npm run test -- --watch=false", "npm"],
    ["ls", "ls"],
    ["CI=true ls", "ls"],
    ["npm run", null],
    ["npm run lint", null],
    ["npm test run", null],
    ["./ls", null],
    ["/bin/ls", null],
    ["npm run $T", null],
    ["PATH=. ls", null],
    ["LD_PRELOAD=x.so ls", null],
    ["GIT_SSH_COMMAND=x ls", null],
    ["sudo ls", null],
  ])("%j → %s", (command, program) => {
    expect(matchAllowList(firstPart(command), allow)?.program ?? null).toBe(program);
  });
});
