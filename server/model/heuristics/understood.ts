import { deriveCommand } from "./derive-command";
import { deriveFileAction } from "./derive-file-action";
import { splitTask } from "./split-task";

const MAX_DEPTH = 3;

/**
 * The steps of `task` the offline model cannot turn into an action (issue #17.3), pure: each step of
 * its split must be a file instruction or a command its rules derive. Empty: it understands it all.
 * The engine would otherwise run each such step through cycles that can only fail the same way.
 */
export function stepsOfflineCannotRead(task: string, depth = 0): string[] {
  const parts = splitTask(task);
  if (parts.length > 1 && depth < MAX_DEPTH) {
    return parts.flatMap((part) => stepsOfflineCannotRead(part, depth + 1));
  }
  const step = parts[0] ?? task.trim();
  if (deriveFileAction(step)) return [];
  return deriveCommand(step).rule === "no-command" ? [step] : [];
}
