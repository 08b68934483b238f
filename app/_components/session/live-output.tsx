"use client";

import { createContext, useContext, useEffect, useRef, useState } from "react";
import type { LiveCommandOutput } from "@/server/domain/session/live-output";
import type { SessionView } from "@/server/domain/session/view";
import { useTRPCClient } from "../../_trpc/client";

/**
 * Commands' output while they run, by cycle id: the last lines so far (server/events/command-output.ts).
 * Ephemeral: once the cycle's result is in the log, the stored output takes the place of these lines.
 *
 * The stream is open only while a cycle of the session waits for its result (`active`), like the
 * answer stream: a browser keeps six connections per host and the page already holds its event stream.
 * Each update carries the whole tail so far, so a stream that opens a moment late loses nothing.
 */
export function useCommandOutput(sessionId: string, active: boolean): Record<string, LiveCommandOutput> {
  const client = useTRPCClient();
  const [outputs, setOutputs] = useState<Record<string, LiveCommandOutput>>({});
  useEffect(() => {
    setOutputs({});
    if (!active) return;
    const subscription = client.session.commandOutput.subscribe(
      { sessionId },
      {
        onData: (output) =>
          setOutputs((current) => {
            const next = { ...current };
            if (output.done) delete next[output.cycleId];
            else next[output.cycleId] = output;
            return next;
          }),
      },
    );
    return () => subscription.unsubscribe();
  }, [client, sessionId, active]);
  return outputs;
}

/** True while some cycle of the session (or its setup command) has started and has no result yet. */
export function hasRunningCycle(view: SessionView): boolean {
  const setup = view.environment?.setupRunning;
  if (setup && view.runs[setup.runId]?.status === "RUNNING") return true;
  return Object.values(view.intentions).some((intention) =>
    intention.cycles.some((cycle) => cycle.durationMs === null && cycle.error === null),
  );
}

const LiveOutputs = createContext<Record<string, LiveCommandOutput>>({});

/** The live session view wraps its tree in this; the replay does not (it shows the stored output only). */
export const LiveOutputProvider = LiveOutputs.Provider;

/** The running command's last lines, under its cycle; nothing once its result is stored. */
export function LiveCycleOutput({ cycleId }: { cycleId: string }) {
  const output = useContext(LiveOutputs)[cycleId];
  const box = useRef<HTMLPreElement>(null);
  const text = output?.text;
  // Follow the newest lines, like a terminal, unless the person scrolled up to read.
  useEffect(() => {
    const pre = box.current;
    if (!pre || text === undefined) return;
    const nearBottom = pre.scrollHeight - pre.scrollTop - pre.clientHeight < 80;
    if (nearBottom || pre.dataset.followed !== "yes") {
      pre.scrollTop = pre.scrollHeight;
      pre.dataset.followed = "yes";
    }
  }, [text]);
  if (!output) return null;
  const shown = output.text.length;
  return (
    <>
      <span className="muted small" data-testid="cycle-live-note">
        running… live output
        {output.totalChars > shown ? ` (last lines of ${output.totalChars.toLocaleString()} characters)` : ""}
      </span>
      <pre className="output live" data-testid="cycle-live-output" ref={box}>
        {output.text}
      </pre>
    </>
  );
}
