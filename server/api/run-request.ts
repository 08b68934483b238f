import "server-only";
import { z } from "zod";
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
});
