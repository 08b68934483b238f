import type { IntentionView, RoleReport } from "@/server/domain/session/view";

/**
 * Full mode's helpers on an intention (seed 002): the files the Librarian ranked for the latest
 * attempt (and which were read for the Artisan), and each Critic review — an approval, or the issues
 * that sent the change back before anyone was asked. From the log, so a replay shows them too.
 */

const ROLE_LABEL = { librarian: "Librarian", critic: "Critic", chaos: "Chaos" } as const;

function who(report: RoleReport): string {
  const by = report.source === "heuristics" ? "offline heuristics" : report.modelId;
  return `${ROLE_LABEL[report.role]} (${by}, cycle ${report.cycleIndex + 1})`;
}

function RoleLine({ report }: { report: RoleReport }) {
  if (report.role === "librarian") {
    return (
      <li data-testid="role-librarian">
        <strong>{who(report)}</strong>: {report.summary}
        {report.files.length > 0 && (
          <ul className="role-files">
            {report.files.map((file) => (
              <li key={file.path} data-read={file.read}>
                <code>{file.path}</code>
                {file.read ? " (read for the Artisan)" : ""}
                {file.why ? ` — ${file.why}` : ""}
              </li>
            ))}
          </ul>
        )}
      </li>
    );
  }
  if (report.role === "critic") {
    return (
      <li data-testid="role-critic" data-verdict={report.verdict ?? ""}>
        <strong>{who(report)}</strong>:{" "}
        {report.verdict === "revise" ? "sent the change back" : "approved the change"}
        {report.issues.length > 0
          ? ` — ${report.issues.join("; ")}`
          : report.summary
            ? ` — ${report.summary}`
            : ""}
      </li>
    );
  }
  return (
    <li data-testid="role-chaos">
      <strong>{who(report)}</strong>:{" "}
      {report.test ? (
        <>
          wrote <code>{report.test.path}</code> ({report.test.attack || "adversarial test"}), checked with{" "}
          <code>{report.test.command}</code>
        </>
      ) : (
        report.summary
      )}
    </li>
  );
}

export function NodeRoles({ intention }: { intention: IntentionView }) {
  if (intention.roles.length === 0) return null;
  // The latest Librarian ranking, and every review since it (the Critic's word per attempt).
  const lastLibrarian = intention.roles.findLastIndex((report) => report.role === "librarian");
  const shown = intention.roles.filter(
    (report, index) => report.role !== "librarian" || index === lastLibrarian,
  );
  return (
    <details className="node-roles small" data-testid="intention-roles" open>
      <summary className="muted">Full mode: Librarian → Artisan → Critic</summary>
      <ul>
        {shown.map((report) => (
          // One report per role and cycle: the Librarian and Critic once a cycle, Chaos once a tier.
          <RoleLine key={`${report.role}-${report.cycleIndex}`} report={report} />
        ))}
      </ul>
    </details>
  );
}
