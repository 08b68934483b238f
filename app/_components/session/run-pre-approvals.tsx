import type { RunView } from "@/server/events/fold";

const LABELS = { write: "file changes", "git-write": "git changes" } as const;

/** What a person pre-approved for the rest of this run, and who: shown in the session bar. */
export function RunPreApprovals({ run }: { run: RunView }) {
  if (run.preApproved.length === 0) return null;
  const text = run.preApproved.map((grant) => `${LABELS[grant.category]} (by ${grant.grantedBy})`).join(", ");
  return (
    <span
      className="pill"
      data-testid="run-preapproved"
      title="Deletes, checkouts, protected files and commands still ask"
    >
      Pre-approved for this run: {text}
    </span>
  );
}
