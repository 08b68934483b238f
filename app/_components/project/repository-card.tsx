"use client";

import { useQuery } from "@tanstack/react-query";
import { describeError, useTRPC } from "../../_trpc/client";

/** A short date in the reader's locale, e.g. "25 Nov, 16:07". */
function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

/** What the project holds: its default branch's root files, its latest commits and its branches. */
export function RepositoryCard({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const repository = useQuery(trpc.project.repository.queryOptions({ projectId }));
  const data = repository.data;
  return (
    <section className="card stack" aria-label="Repository" data-testid="project-repository">
      <h2>Repository</h2>
      {repository.isPending && <p className="muted small">Reading the repository…</p>}
      {repository.error && (
        <p role="alert" className="error small">
          Could not read the repository: {describeError(repository.error)} Reload the page to try again.
        </p>
      )}
      {data && (
        <>
          <div>
            <h3 className="project-subhead">
              Files on <code>{data.defaultBranch}</code>
            </h3>
            {data.files.length === 0 ? (
              <p className="muted small">No files yet.</p>
            ) : (
              <ul className="repo-files" data-testid="project-files">
                {data.files.map((file) => (
                  <li key={file}>
                    <code>{file}</code>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div>
            <h3 className="project-subhead">Recent commits</h3>
            <ul className="list repo-commits" data-testid="project-commits">
              {data.commits.map((commit) => (
                <li key={commit.hash}>
                  <span className="repo-commit-subject">
                    <code className="muted">{commit.hash.slice(0, 7)}</code> {commit.subject}
                  </span>
                  <span className="muted small">
                    {commit.author} · {when(commit.date)}
                  </span>
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h3 className="project-subhead">Branches</h3>
            <ul className="list" data-testid="project-branches">
              {data.branches.map((branch) => (
                <li key={branch.name}>
                  <code className="repo-branch">
                    {branch.name}
                    {branch.name === data.defaultBranch ? " (default)" : ""}
                  </code>
                  <span className="muted small">{when(branch.date)}</span>
                </li>
              ))}
            </ul>
          </div>
        </>
      )}
    </section>
  );
}
