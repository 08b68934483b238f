import type { ApprovalView } from "@/server/domain/session/view";

/**
 * Issue #15.7: a command cut off by a server crash asks before it runs again. What the person needs
 * to decide: how long it ran (so how far it may have got) and the last of what it printed before the
 * crash, as far as the server kept it.
 */
export function InterruptedCommand({
  interruption,
}: {
  interruption: NonNullable<ApprovalView["interruption"]>;
}) {
  const seconds = interruption.ranMs === null ? null : `${(interruption.ranMs / 1000).toFixed(1)} s`;
  const ran =
    seconds === null
      ? "How long it ran is not known."
      : interruption.ranKind === "ended"
        ? `It ran for ${seconds}: it was still running when the server came back, and was ended then.`
        : `It ran for at least ${seconds} before the server stopped.`;
  const shown = interruption.output?.length ?? 0;
  return (
    <div className="small" data-testid="interrupted-command">
      <p className="warn" data-testid="interrupted-ran">
        Cut off by a server restart. {ran} It may have done part of its work.
      </p>
      {interruption.output === null ? (
        <p className="muted" data-testid="interrupted-output-missing">
          What it printed before the restart was not kept.
        </p>
      ) : interruption.outputChars === 0 ? (
        <p className="muted" data-testid="interrupted-output-empty">
          It printed nothing before the restart.
        </p>
      ) : (
        <>
          <p className="muted">
            {shown < interruption.outputChars
              ? `Output before the restart (the last ${shown} of ${interruption.outputChars} characters):`
              : "Output before the restart:"}
          </p>
          <pre className="output" data-testid="interrupted-output">
            {interruption.output}
          </pre>
        </>
      )}
    </div>
  );
}
