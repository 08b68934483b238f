import "server-only";
import { readUserSettings, type UserSettings } from "@/server/domain/settings/user-config";
import type { PrismaClient } from "@/server/generated/prisma/client";
import type { ModelSettingValues } from "./layers";

/**
 * A person's own settings layer (issue #20.3), stored per person (one row, every team): read for the
 * runs of the sessions that person opened, and for what the settings page shows them.
 */
export type UserSettingsDb = Pick<PrismaClient, "userSettings">;

/** The person's settings; none (or a row a newer version wrote) is an empty layer. */
export async function personSettings(
  db: UserSettingsDb,
  userId: string | null | undefined,
): Promise<UserSettings> {
  if (!userId) return {};
  const row = await db.userSettings.findUnique({ where: { userId }, select: { settings: true } });
  return readUserSettings(row?.settings);
}

export async function savePersonSettings(
  db: UserSettingsDb,
  userId: string,
  settings: UserSettings,
): Promise<UserSettings> {
  const json = JSON.stringify(settings);
  await db.userSettings.upsert({
    where: { userId },
    create: { userId, settings: json },
    update: { settings: json },
  });
  return settings;
}

/** The person's model values: a name and a timeout, never a provider, server or key. */
export function personModelLayer(settings: UserSettings): ModelSettingValues {
  const { name, timeoutMs } = settings.model ?? {};
  return { ...(name ? { modelName: name } : {}), ...(timeoutMs ? { timeoutMs } : {}) };
}
