import type { RunView } from "@/server/domain/session/view";
import { CLI_CONFIG_LABEL, userSettingEntries } from "@/server/domain/settings/user-config";

/**
 * Where a run's settings came from when `arbor run` sent the CLI user file's server keys with it
 * (issue #20): what the file set, and what the server ignored because it was looser than the layers
 * below, with the reason. Nothing for a run started without one.
 */
export function RunCliConfig({ run }: { run: RunView }) {
  if (!run.cliConfig) return null;
  const set = userSettingEntries(run.cliConfig.settings);
  return (
    <div className="muted" data-testid="run-cli-config">
      <span>
        Settings from {CLI_CONFIG_LABEL}: {set.map(([key, value]) => `${key} = ${value}`).join(" · ")}
      </span>
      {run.cliConfig.ignored.length > 0 && (
        <ul>
          {run.cliConfig.ignored.map((row) => (
            <li key={row.key} data-testid="run-cli-config-ignored">
              {row.key} = {row.value} is ignored: {row.reason}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
