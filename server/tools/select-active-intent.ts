import { INTENTS_FILE, selectActiveIntentSpec } from "@/server/domain/tools/select-active-intent";
import { intentContext, parseIntentsFile } from "./intents-file";
import { execIn, isFailure } from "./sandbox-calls";
import { implementTool } from "./types";

export const selectActiveIntent = implementTool(selectActiveIntentSpec, {
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
