import "server-only";
import { z } from "zod";
import { UserSettings } from "@/server/domain/settings/user-config";
import { ReasoningSwitch, UserMode } from "@/server/domain/vocabulary/stages";
import { RunModelOverrides } from "@/server/settings/run-overrides";
import { TaskText } from "./user-text";

/** What a person sends to start a run, from the project page (a new session) or the chat panel. */
export const RunRequest = z.object({
  task: TaskText,
  mode: UserMode.default("agent"),
  /** The person's reasoning switch, as set in the chat panel (never by the server). */
  reasoning: ReasoningSwitch.default("off"),
  /** Run overrides: the highest layer of the model configuration. */
  model: RunModelOverrides.optional(),
  /**
   * The server keys of the person's CLI user file (`~/.config/arbor/config.yaml`: model, checkpoints,
   * limits, budgets), sent by `arbor run` and `arbor chat`: this run's own person layer, over the
   * caller's stored one, only ever tighter but for the model name and timeout (issue #20).
   */
  cliConfig: UserSettings.optional(),
});
