import type { IgnoredSetting } from "@/server/domain/settings/repo-tighten";
import type { UserSettings } from "@/server/domain/settings/user-config";

/**
 * Issue #20: the server keys of a person's CLI user file (`~/.config/arbor/config.yaml`), sent with a
 * run, become that run's own person layer. Recorded in run-started with what of it was ignored when
 * the run started (looser than the layers below), so a resume anywhere applies the same layer and
 * the session can say where the run's settings came from.
 */
export type CliConfigIgnored = (sessionId: string, cliLayer: UserSettings) => Promise<IgnoredSetting[]>;

/** A layer naming nothing is no layer: the run is recorded as started without one. */
export function usedCliLayer(layer: UserSettings | undefined): UserSettings | null {
  if (!layer) return null;
  const named = Object.values(layer).some(
    (section) => section !== undefined && Object.keys(section).length > 0,
  );
  return named ? layer : null;
}

/** run-started's `cliConfig`: the layer as sent, and what the server will not use from it and why. */
export async function cliConfigRecord(
  sessionId: string,
  layer: UserSettings | null,
  ignoredOf: CliConfigIgnored | undefined,
): Promise<{ cliConfig?: { settings: UserSettings; ignored: Omit<IgnoredSetting, "layer">[] } }> {
  if (!layer) return {};
  const ignored = ignoredOf ? await ignoredOf(sessionId, layer) : [];
  return {
    cliConfig: {
      settings: layer,
      ignored: ignored.map(({ key, value, reason }) => ({ key, value, reason })),
    },
  };
}
