import { z } from "zod";
import type { LiveCommandOutput } from "@/server/domain/session/live-output";
import { commandOutput } from "./command-output";
import { listenOnChannel } from "./pg-listener";

/** A channel of its own: the live events' listeners never parse these. */
export const COMMAND_OUTPUT_CHANNEL = "arbor_command_output";
/** NOTIFY refuses payloads of 8000 bytes or more; the rest of the JSON fits in the margin. */
export const MAX_PAYLOAD_BYTES = 7_600;

const Relayed = z.object({
  instance: z.string(),
  sessionId: z.string(),
  output: z.object({
    runId: z.string(),
    intentionId: z.string(),
    cycleId: z.string(),
    text: z.string(),
    totalChars: z.number().int().nonnegative(),
    done: z.boolean(),
  }),
});

/**
 * The NOTIFY payload for one update. The tail (up to 32 000 characters here) is cut to its last whole
 * lines that fit in NOTIFY's limit, so a watcher on another instance sees fewer lines than one on the
 * driving instance when a command prints long ones; `totalChars` stays whole, so the page still says
 * how much it is not showing. Pure, so it is unit-tested.
 */
export function relayPayload(instance: string, sessionId: string, output: LiveCommandOutput): string {
  const payload = (text: string) => JSON.stringify({ instance, sessionId, output: { ...output, text } });
  const whole = payload(output.text);
  if (Buffer.byteLength(whole) <= MAX_PAYLOAD_BYTES) return whole;
  // What a piece of text adds to the payload once escaped (JSON.stringify's quotes not counted).
  const cost = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;
  let budget = MAX_PAYLOAD_BYTES - Buffer.byteLength(payload(""));
  const lines = output.text.split(/(?<=\n)/);
  let kept = "";
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index] as string;
    const lineCost = cost(line);
    if (lineCost > budget) {
      // The newest line alone is too long: its end, at most 6 bytes a character once escaped.
      if (kept === "") kept = line.slice(-Math.floor(budget / 6));
      break;
    }
    kept = line + kept;
    budget -= lineCost;
  }
  return payload(kept);
}

/**
 * Live command output across instances: every update this instance's hub sends (already throttled to
 * one per SEND_INTERVAL_MS per command, and already redacted) is NOTIFYed on its own channel, and the
 * updates other instances send reach this instance's readers. Ephemeral like the hub itself: an update
 * sent while the connection is down is lost, and the next one (each carries the whole tail) or the
 * stored result puts the page right.
 */
export function relayCommandOutput(
  url: string,
  instance: string,
  onProblem: (error: unknown) => void = () => undefined,
): { ready: Promise<void>; close: () => Promise<void> } {
  const channel = listenOnChannel(
    url,
    COMMAND_OUTPUT_CHANNEL,
    (payload) => {
      const parsed = Relayed.safeParse(JSON.parse(payload ?? "null"));
      if (!parsed.success || parsed.data.instance === instance) return;
      commandOutput.receive(parsed.data.sessionId, parsed.data.output);
    },
    onProblem,
  );
  commandOutput.relayTo((sessionId, output) => {
    channel.notify(relayPayload(instance, sessionId, output));
  });
  return {
    ready: channel.ready,
    close: async () => {
      commandOutput.relayTo(null);
      await channel.close();
    },
  };
}
