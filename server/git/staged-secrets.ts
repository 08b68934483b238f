import { parseUnifiedDiff } from "@/server/governance/ledger/diff-ranges";
import { detectSecrets, type SecretFinding } from "@/server/governance/secrets";

export interface StagedFinding extends SecretFinding {
  path: string;
}

/**
 * Secrets in what is about to be committed: every added line of the staged diff, plus environment
 * files by name. Only added lines are read — a secret being removed must not block its removal.
 */
export function secretsInStagedDiff(diff: string): StagedFinding[] {
  const findings: StagedFinding[] = [];
  for (const file of parseUnifiedDiff(diff)) {
    if (file.change === "deleted") continue;
    const byName = detectSecrets("", { fileName: file.path }).map((finding) => ({
      ...finding,
      path: file.path,
    }));
    findings.push(...byName);
    for (const range of file.ranges) {
      for (const finding of detectSecrets(range.lines.join("\n"))) {
        findings.push({ ...finding, line: range.startLine + finding.line - 1, path: file.path });
      }
    }
  }
  return findings;
}
