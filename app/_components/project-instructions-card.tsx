"use client";

import { useQuery } from "@tanstack/react-query";
import Markdown from "react-markdown";
import { describeError, useTRPC } from "../_trpc/client";

/**
 * The project's AGENTS.md / CLAUDE.md as the default branch has them: what every run sends the model
 * (issue #21.1). Rendered as Markdown without raw HTML (react-markdown's default), so a repository's
 * file cannot put markup or scripts on the page.
 */
export function ProjectInstructionsCard({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const instructions = useQuery(trpc.project.instructions.queryOptions({ projectId }));
  const files = instructions.data?.files ?? [];
  return (
    <section className="card" aria-label="Project instructions" data-testid="project-instructions">
      <h2>Project instructions</h2>
      <p className="muted small">
        The agent is told these in every request that plans, acts or checks. Read from the default branch's
        AGENTS.md (or CLAUDE.md); the agent's own changes to them always ask a person.
      </p>
      {instructions.error ? <p className="error">{describeError(instructions.error)}</p> : null}
      {instructions.isPending ? <p className="muted">Loading…</p> : null}
      {instructions.data && files.length === 0 ? (
        <p className="muted" data-testid="project-instructions-empty">
          No AGENTS.md or CLAUDE.md on the default branch.
        </p>
      ) : null}
      {files.map((file) => (
        <article key={file.path} data-testid="project-instructions-file">
          <h3 className="small">
            <code>{file.path}</code>
          </h3>
          <div className="markdown">
            <Markdown>{file.text}</Markdown>
          </div>
        </article>
      ))}
    </section>
  );
}
