import "server-only";
import type { Duplex } from "node:stream";

/**
 * Settles once an attached exec stream ends, closes or breaks — each is the end of the process behind
 * it (a broken connection included: its watchers are told it ended) — after `finish` has run.
 */
export function finishedWhenStreamEnds(stream: Duplex, finish: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    const end = () => {
      void finish().then(resolve);
    };
    stream.once("end", end);
    stream.once("close", end);
    stream.once("error", end);
  });
}
