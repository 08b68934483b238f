/**
 * What a `git push --porcelain` of one branch came to, in words a person can act on (issue #21.3).
 * Git's reason is kept: a non-fast-forward, a protected branch refused by the remote's hook (with the
 * hook's own `remote:` lines), a failed sign-in. Nothing here ever suggests forcing.
 */

export type PushOutcome =
  | { pushed: true; upToDate: boolean }
  | { pushed: false; reason: string; nonFastForward: boolean };

const MAX_REASON = 2_000;

/** The porcelain status line of `ref` ("<flag>\t<from>:<to>\t<summary>"), if git printed one. */
function statusLine(stdout: string, ref: string): { flag: string; summary: string } | null {
  for (const line of stdout.split("\n")) {
    const [flag, refs, summary] = line.split("\t");
    if (flag === undefined || refs === undefined || summary === undefined) continue;
    if (refs.endsWith(`:${ref}`)) return { flag, summary: summary.trim() };
  }
  return null;
}

/** The lines the remote itself printed (a hook's reason), without git's "remote: " prefix. */
function remoteLines(stderr: string): string[] {
  return stderr
    .split("\n")
    .filter((line) => line.startsWith("remote:"))
    .map((line) => line.replace(/^remote:\s?/, "").trimEnd())
    .filter((line) => line.trim() !== "");
}

function firstFatal(stderr: string): string | null {
  const line = stderr.split("\n").find((text) => /^(fatal|error):/.test(text));
  return line ? line.replace(/^(fatal|error):\s*/, "") : null;
}

export function pushOutcome(
  output: { stdout: string; stderr: string; exitCode: number },
  ref: string,
): PushOutcome {
  const status = statusLine(output.stdout, ref);
  if (output.exitCode === 0 && status && status.flag !== "!")
    return { pushed: true, upToDate: status.flag === "=" };
  const branch = ref.replace(/^refs\/heads\//, "");
  const said = remoteLines(output.stderr);
  let reason: string;
  let nonFastForward = false;
  if (status && /\[rejected\]/.test(status.summary)) {
    nonFastForward = /non-fast-forward|fetch first/.test(status.summary);
    reason = nonFastForward
      ? `The remote's ${branch} has commits this branch does not have (non-fast-forward). Nothing was force-pushed: bring the remote's commits into the work, or push it under another branch.`
      : `The remote refused ${branch}: ${status.summary}.`;
  } else if (status && /\[remote rejected\]/.test(status.summary)) {
    const why = status.summary.replace(/^\[remote rejected\]\s*/, "").replace(/^\((.*)\)$/, "$1");
    reason = `The remote refused ${branch} (${why})${said.length ? `: ${said.join(" ")}` : "."}`;
  } else {
    const fatal = firstFatal(output.stderr);
    reason = `The push failed: ${fatal ?? (said.join(" ") || `git exited with ${output.exitCode}`)}`;
  }
  return { pushed: false, reason: reason.slice(0, MAX_REASON), nonFastForward };
}
