import { ApprovalPolicy, type ApprovedScope } from "@/server/domain/policy/approval-policy";
import { isToolName, TOOL_SPECS } from "@/server/domain/tools/catalogue";
import { RiskClass, stricterRisk } from "@/server/domain/tools/risk";
import {
  type ActiveIntent,
  INTENT_REQUIRED_ERROR,
  scopeViolationError,
} from "@/server/governance/intent-gate";
import { matchScope, protectionOf, resolveWorkspacePath } from "@/server/governance/scope";
import type { SecretFinding } from "@/server/governance/secrets";
import { type ApprovalDecision, approve, ask, deny } from "./decision";
import { PreApprovals } from "./policy";
import { decideShellCommand } from "./shell-gate";
import { subjectOf } from "./subject";

/**
 * The approval gate: one pure function from a tool call and what has been decided in advance to
 * approve, deny or ask. It fails closed everywhere: an unknown tool or risk denies, a missing or
 * invalid policy asks, and nothing it cannot analyse is ever approved.
 *
 * Order matters and is: what the call is (tool, risk, input) → the intent gate (a mutating tool needs
 * an intent) → the scope guard (lexical; the dispatch has already refused symlink escapes with
 * checkPathAccess) → the policy → safe tools → shell rules → secrets → protected paths → risk class
 * with pre-approvals and approved scopes.
 */
export interface ApprovalRequest {
  /** The tool name as the model sent it; unknown names are denied. */
  tool: string;
  /** The tool's input after its own zod schema accepted it. */
  input: unknown;
  /** The risk class the tool declares; the stricter of it and the catalogue's class applies. */
  risk: unknown;
  activeIntent: ActiveIntent | null;
  /** The project's ApprovalPolicy as stored; validated here, so bad data means ask. */
  policy: unknown;
  /** Categories pre-approved for the run or the project (PreApprovals), validated here too. */
  preApprovals: unknown;
  /** Secrets found in what the call writes or commits (e.g. the staged diff for git.commit). */
  secretFindings?: readonly SecretFinding[];
  /**
   * The real paths behind the input's paths, from checkPathAccess. They are judged like the paths
   * themselves, so a link in scope that leads to a protected file is asked about, not approved.
   */
  realPaths?: readonly string[];
}

export type { ApprovalDecision };

export function decideApproval(request: ApprovalRequest): ApprovalDecision {
  const { tool, activeIntent } = request;
  if (!isToolName(tool))
    return deny(`Unknown tool ${JSON.stringify(tool)}: it has no risk class, so it cannot run.`);
  const declared = RiskClass.safeParse(request.risk);
  if (!declared.success) return deny(`${tool} declares an unknown risk class, so it cannot run.`);
  const spec = TOOL_SPECS[tool];
  const risk = stricterRisk(spec.risk, declared.data);
  const dangerous = risk === "dangerous";
  const subject = subjectOf(tool, request.input);
  if (!subject) return deny(`The input of ${tool} lacks the fields the approval gate checks.`);

  if (risk !== "safe" && !activeIntent) return deny(INTENT_REQUIRED_ERROR);
  // Nothing decided in advance lets the setup command run: only the approval a person gave it in
  // the project's settings, bound to its exact text (the dispatch checks that binding).
  if (tool === "setup.run")
    return ask(
      "The setup command runs only with the approval a person gave it in the project's settings.",
      true,
    );
  const paths: string[] = [];
  const written = subject.kind === "paths" ? [...subject.paths, ...(request.realPaths ?? [])] : [];
  for (const path of written) {
    const resolved = resolveWorkspacePath(path);
    if (!resolved.ok) return deny(`${tool} refused: ${resolved.reason}.`);
    if (activeIntent && risk !== "safe") {
      const match = matchScope(resolved.relative, activeIntent.ownedScope);
      const caseNote = match === "case-only" ? " (it matches only if letter case is ignored)" : "";
      if (match !== "in") return deny(scopeViolationError(activeIntent.id, resolved.relative) + caseNote);
    }
    if (!paths.includes(resolved.relative)) paths.push(resolved.relative);
  }

  const policy = ApprovalPolicy.safeParse(request.policy);
  if (!policy.success)
    return ask(`The approval policy is missing or invalid, so ${tool} needs a person.`, dangerous);
  const preApprovals = PreApprovals.safeParse(request.preApprovals);
  if (!preApprovals.success)
    return ask(`The pre-approvals are missing or invalid, so ${tool} needs a person.`, dangerous);

  if (risk === "safe") return approve(`${tool} is a safe tool; it needs no approval.`);
  // Already denied above for every non-safe tool; repeated so the type system knows the intent is set.
  if (!activeIntent) return deny(INTENT_REQUIRED_ERROR);
  if (subject.kind === "command")
    return decideShellCommand({
      command: subject.command,
      activeIntent,
      policy: policy.data,
      // A command is dangerous: a run's pre-approval (granted on one card) never lets one through.
      preApprovals: { ...preApprovals.data, run: [] },
    });

  const findings = request.secretFindings ?? [];
  if (findings.length > 0) return ask(describeFindings(findings), true);
  for (const path of paths) {
    const reason = protectionOf(path);
    if (reason) return ask(`${path} is protected (${reason}); it always needs approval.`, true);
  }

  const { category } = spec;
  const target = paths.length > 0 ? paths.join(", ") : tool;
  const forProject = preApprovals.data.project.includes(category);
  if (dangerous)
    return forProject
      ? approve(`${category} tools are pre-approved for this project, including ${tool}.`)
      : ask(`${tool} on ${target} is dangerous and needs confirmation.`, true);
  if (forProject) return approve(`${category} tools are pre-approved for every run of this project.`);
  // A run's pre-approval covers moderate calls only: it was granted on one card, not for deletes.
  if (preApprovals.data.run.includes(category)) {
    const by = preApprovals.data.runGrantedBy[category];
    return approve(`${category} tools are pre-approved for this run${by ? ` by ${by}` : ""}.`);
  }
  if (paths.length === 0) return ask(`${tool} needs approval.`, false);
  return decideByApprovedScopes(tool, paths, policy.data);
}

/** A moderate write is approved where a decomposition approved the scope and its check is not red. */
function decideByApprovedScopes(
  tool: string,
  paths: readonly string[],
  policy: ApprovalPolicy,
): ApprovalDecision {
  const covering = policy.approvedScopes.filter((scope) =>
    paths.every((path) => matchScope(path, scope.ownedScope) === "in"),
  );
  const target = paths.join(", ");
  if (covering.length === 0) return ask(`${tool} on ${target} is outside every approved scope.`, false);
  const green = covering.find((scope) => scope.checkStatus === "green");
  if (green) return approve(`${target} is inside an approved scope whose check ${green.checkId} is green.`);
  const unknown = covering.find((scope) => scope.checkStatus === "unknown");
  if (unknown && policy.approveWhenCheckUnknown)
    return approve(`${target} is inside an approved scope; its check ${unknown.checkId} has not run yet.`);
  return ask(`${tool} on ${target} needs approval: ${describeChecks(covering)}.`, false);
}

function describeChecks(scopes: readonly ApprovedScope[]): string {
  return scopes.map((scope) => `check ${scope.checkId} is ${scope.checkStatus}`).join(", ");
}

function describeFindings(findings: readonly SecretFinding[]): string {
  const listed = findings
    .slice(0, 3)
    .map((finding) => `${finding.kind} at line ${finding.line}: ${finding.preview}`)
    .join("; ");
  const more = findings.length > 3 ? ` and ${findings.length - 3} more` : "";
  return `The content may contain secrets (${listed}${more}); a person must look before it is written or committed.`;
}
