import { INTENTS_FILE } from "@/server/domain/tools/select-active-intent";
import type { Sandbox } from "@/server/sandbox/types";

/**
 * Writes the project's intents into a session's workspace as `.orchestration/active_intents.yaml`,
 * where `select_active_intent` reads them. A system write, not an agent action: the content comes from
 * people editing the project page, so it does not pass through the tool dispatch (the agent's own
 * writes to `.orchestration/` stay protected there and always ask).
 *
 * The workspace is the agent's, so nothing in it is trusted: a symlinked `.orchestration` or file is
 * removed rather than followed (the write can never land elsewhere), and the content goes in through
 * stdin, never through the command line. The file is added to `.git/info/exclude` unless the
 * repository tracks it, so mirroring it never shows up as the session's work.
 */
const SCRIPT = [
  "set -e",
  "cd /workspace",
  "if [ -L .orchestration ] || { [ -e .orchestration ] && [ ! -d .orchestration ]; }; then rm -f .orchestration; fi",
  "mkdir -p .orchestration",
  `rm -f ${INTENTS_FILE}`,
  `cat > ${INTENTS_FILE}`,
  `if [ -d .git ] && ! git ls-files --error-unmatch -- ${INTENTS_FILE} >/dev/null 2>&1; then`,
  "  mkdir -p .git/info",
  `  grep -qxF /${INTENTS_FILE} .git/info/exclude 2>/dev/null || printf '%s\\n' /${INTENTS_FILE} >> .git/info/exclude`,
  "fi",
].join("\n");

export async function mirrorIntentsFile(sandbox: Pick<Sandbox, "exec">, content: string): Promise<void> {
  const result = await sandbox.exec(SCRIPT, { stdin: content, timeoutMs: 15_000, maxOutputBytes: 4_096 });
  if (result.exitCode !== 0)
    throw new Error(
      `could not write ${INTENTS_FILE} (exit ${result.exitCode}): ${result.stderr.trim().slice(0, 300)}`,
    );
}
