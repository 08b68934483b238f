import type { TraceRecordedBody } from "@/server/domain/events/trace-schema";
import type { SandboxExec } from "@/server/domain/sandbox-port";
import { singleQuote } from "@/server/domain/text/shell-quote";
import { repositoryPrograms } from "@/server/governance/repository-programs";
import { parseUnifiedDiff } from "./diff-ranges";
import { type AgentTraceRecord, type LedgerContributor, ledgerRecords } from "./record";

/**
 * The trace ledger's collector: what one cycle changed in the session's workspace, as Agent Trace
 * records. Impure only through `exec`, a command runner in the sandbox (cwd /workspace).
 *
 * Attribution is per cycle, not cumulative: before the cycle, `snapshotWorkingTree` writes the
 * working tree (tracked and untracked, minus ignored files) as a git tree object; after it,
 * `collectCycleTrace` snapshots again and diffs the two trees. So a later cycle is never credited
 * with an earlier cycle's lines, and edits made between cycles (by a person) are not credited to the
 * model. Snapshots use a throw-away index file (`GIT_INDEX_FILE`) inside `.git`, so the real index,
 * the working tree, HEAD and the stash are never touched: the only trace is unreferenced objects
 * that `git gc` prunes.
 */

export interface LedgerExecResult {
  exitCode: number | null;
  stdout: string;
  /** True when the output was cut by a size cap (then it cannot be parsed). */
  truncated?: boolean;
}
export type LedgerExec = (command: string) => Promise<LedgerExecResult>;

/** Output cap of the ledger's own git commands: a diff must be read whole to be parsed. */
export const LEDGER_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

/** The ledger's runner over a session sandbox: stdout apart from stderr, a large cap, a time limit. */
export function ledgerExecOf(sandbox: SandboxExec, timeoutMs = 60_000): LedgerExec {
  return async (command) => {
    const result = await sandbox.exec(command, { timeoutMs, maxOutputBytes: LEDGER_MAX_OUTPUT_BYTES });
    return { exitCode: result.exitCode, stdout: result.stdout, truncated: result.truncated };
  };
}

/** git's empty tree: the baseline of a repository without commits. */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
/** At most this many files get their own diff when the whole diff was too large to read. */
const MAX_FILES_ONE_BY_ONE = 200;

/**
 * Dependency and cache folders a project may not ignore: snapshotting them would hash (and store as
 * git objects) thousands of files each cycle, and nobody authors them. Tracked files inside them keep
 * their indexed version in the snapshot, so they never show up as deleted.
 */
export const SNAPSHOT_EXCLUDES = ["node_modules", ".venv", "venv", "__pycache__", ".next", ".cache"] as const;
const EXCLUDE_PATHSPECS = SNAPSHOT_EXCLUDES.map((name) => `':(top,exclude,glob)**/${name}/**'`).join(" ");

/** Run in a subshell, so `exit` and the trap stay inside it even when exec reuses one shell. */
const SNAPSHOT_SCRIPT = [
  "(",
  "gitdir=$(git rev-parse --absolute-git-dir 2>/dev/null) || exit 3",
  'idx="$gitdir/arbor-ledger-index.$BASHPID"',
  `trap 'rm -f "$idx"' EXIT`,
  // Starting from a copy of the real index only saves re-hashing unchanged files.
  'if [ -f "$gitdir/index" ]; then cp "$gitdir/index" "$idx" || exit 4; fi',
  `GIT_INDEX_FILE="$idx" git add -A -- :/ ${EXCLUDE_PATHSPECS} >/dev/null 2>&1 || exit 5`,
  'GIT_INDEX_FILE="$idx" git write-tree 2>/dev/null',
  ")",
].join("\n");

function diffCommand(before: string, after: string, path?: string): string {
  const tail = path === undefined ? "" : ` -- ${singleQuote(`:(literal)${path}`)}`;
  return `git -c core.quotePath=false diff --no-color --no-ext-diff --no-textconv -M --unified=0 ${before} ${after}${tail} 2>/dev/null`;
}

/**
 * The working tree as a git tree id, without touching the index or the files; null when /workspace
 * is not a git repository or git fails (the collector then falls back to HEAD).
 */
export async function snapshotWorkingTree(exec: LedgerExec): Promise<string | null> {
  try {
    // `git add` would run a filter driver the repository's own config names: no snapshot then.
    if ((await repositoryPrograms(exec)).length > 0) return null;
    const result = await exec(SNAPSHOT_SCRIPT);
    const id = result.stdout.trim();
    return result.exitCode === 0 && OBJECT_ID.test(id) ? id : null;
  } catch {
    return null;
  }
}

/** `git rev-parse HEAD`, or null before the first commit. */
export async function headRevision(exec: LedgerExec): Promise<string | null> {
  const result = await exec("git rev-parse --verify -q HEAD 2>/dev/null");
  const id = result.stdout.trim();
  return result.exitCode === 0 && OBJECT_ID.test(id) ? id : null;
}

export interface CollectInput {
  exec: LedgerExec;
  /** `snapshotWorkingTree` taken just before the cycle's action ran; null diffs against HEAD. */
  before: string | null;
  sessionId: string;
  runId: string | null;
  intentionId: string | null;
  cycleId: string | null;
  modelId?: string;
  contributor?: LedgerContributor;
  approver: string | null;
  checkResult: string | null;
  /** Defaults to now. */
  timestamp?: string;
}

export interface CollectResult {
  records: AgentTraceRecord[];
  /** The snapshot after the cycle (the next cycle may use it as its `before` if nothing ran between). */
  after: string | null;
  /** Why nothing could be collected, when that is the case (for a log line; never thrown). */
  problem: string | null;
}

/** The diff text between two trees; files whose own diff is still too large are returned apart. */
async function readDiff(
  exec: LedgerExec,
  before: string,
  after: string,
): Promise<{ diff: string; truncatedFiles: string[] }> {
  const whole = await exec(diffCommand(before, after));
  if (whole.exitCode !== 0) throw new Error(`git diff exited with ${whole.exitCode}`);
  if (!whole.truncated) return { diff: whole.stdout, truncatedFiles: [] };
  const names = await exec(
    `git -c core.quotePath=false diff --no-color --name-only -M ${before} ${after} 2>/dev/null | head -n ${MAX_FILES_ONE_BY_ONE}`,
  );
  const parts: string[] = [];
  const truncatedFiles: string[] = [];
  for (const path of names.stdout.split("\n").filter((line) => line !== "")) {
    const one = await exec(diffCommand(before, after, path));
    if (one.exitCode === 0 && !one.truncated) parts.push(one.stdout);
    else truncatedFiles.push(path);
  }
  return { diff: parts.join(""), truncatedFiles };
}

/**
 * The Agent Trace records of what the cycle changed since `before` (zero or one record). Never
 * throws: a failure becomes `problem`, so a ledger hiccup cannot fail the cycle it describes.
 */
export async function collectCycleTrace(input: CollectInput): Promise<CollectResult> {
  const { exec } = input;
  try {
    const after = await snapshotWorkingTree(exec);
    if (after === null) return { records: [], after: null, problem: "the workspace is not a git repository" };
    const revision = await headRevision(exec);
    const baseline = input.before ?? revision ?? EMPTY_TREE;
    if (baseline === after) return { records: [], after, problem: null };
    const { diff, truncatedFiles } = await readDiff(exec, baseline, after);
    const records = ledgerRecords({
      diff: parseUnifiedDiff(diff),
      truncatedFiles,
      revision,
      sessionId: input.sessionId,
      runId: input.runId,
      intentionId: input.intentionId,
      cycleId: input.cycleId,
      ...(input.modelId === undefined ? {} : { modelId: input.modelId }),
      ...(input.contributor === undefined ? {} : { contributor: input.contributor }),
      approver: input.approver,
      checkResult: input.checkResult,
      timestamp: input.timestamp ?? new Date().toISOString(),
      baseline: input.before === null ? "head" : "snapshot",
    });
    return { records, after, problem: null };
  } catch (error) {
    return { records: [], after: null, problem: error instanceof Error ? error.message : String(error) };
  }
}

/** The `trace-recorded` event of a collected cycle, or null when it changed nothing. */
export function traceRecordedEvent(
  ids: { runId: string; intentionId: string; cycleId: string },
  result: Pick<CollectResult, "records">,
): TraceRecordedBody | null {
  return result.records.length === 0 ? null : { type: "trace-recorded", ...ids, records: result.records };
}
