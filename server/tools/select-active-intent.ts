import { z } from "zod";
import { INTENTS_FILE, intentContext, parseIntentsFile } from "./intents-file";
import { execIn, isFailure } from "./sandbox-calls";
import { defineTool } from "./types";

export const selectActiveIntent = defineTool({
  name: "select_active_intent",
  risk: "safe",
  description: [
    "Declares which intent from .orchestration/active_intents.yaml your next changes serve, and returns its <intent_context>:",
    "the owned_scope (the only paths you may write), its constraints and its acceptance criteria.",
    "Call it before your first change when the task serves one of the project's intents: from then on the run's writes outside its owned_scope are refused",
    "(a step whose scope a person approved stays bound to that narrower scope). Call it again to switch intents. Needs no approval.",
  ].join(" "),
  input: z.strictObject({
    intent_id: z.string().min(1).max(200).describe("The intent's id, e.g. `INT-001`."),
  }),
  // Resolved by the scope guard like any read, so a linked .orchestration cannot lead outside.
  paths: () => [INTENTS_FILE],
  writes: false,
  async execute(input, runtime) {
    const read = await execIn(runtime, `cat -- /workspace/${INTENTS_FILE}`);
    if (isFailure(read)) return read.failure;
    if (read.exitCode !== 0)
      return {
        ok: false,
        code: "not_found",
        message: `${INTENTS_FILE} does not exist, so there is no intent to select.`,
      };
    const parsed = parseIntentsFile(read.stdout);
    if (!parsed.ok)
      return {
        ok: false,
        code: "invalid_input",
        message: `${INTENTS_FILE} cannot be read: ${parsed.reason}.`,
      };
    const intent = parsed.intents.find((candidate) => candidate.id === input.intent_id);
    if (!intent) {
      const known = parsed.intents.map((candidate) => candidate.id).join(", ") || "none";
      return {
        ok: false,
        code: "not_found",
        message: `There is no intent ${input.intent_id} (known: ${known}).`,
      };
    }
    return {
      ok: true,
      output: intentContext(intent),
      selectedIntent: { id: intent.id, ownedScope: [...intent.owned_scope] },
    };
  },
});
