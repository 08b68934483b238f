import type { EventOf } from "@/server/domain/events/schema";

/** What became of the session's work in the project's repository. */
export interface WorkView {
  state: "saved" | "merged" | "discarded";
  branch: string;
  commit: string | null;
  files: string[];
  by: string;
  secretsOverridden: boolean;
  /** The last push to the project's upstream remote (issue #21.3): done, or refused with git's reason. */
  push?: { remote: string; commit: string | null; by: string; refused: string | null } | null;
  pullRequest?: { number: number; url: string; by: string } | null;
}

type WorkEvent =
  | EventOf<"work-saved">
  | EventOf<"work-merged">
  | EventOf<"work-discarded">
  | EventOf<"work-pushed">
  | EventOf<"work-push-refused">
  | EventOf<"pull-request-opened">;

const NO_WORK = { state: "saved" as const, commit: null, files: [], by: "", secretsOverridden: false };

/** The session's work after one of its work events (part of the session fold). */
export function foldWork(work: WorkView | null, body: WorkEvent): WorkView {
  switch (body.type) {
    case "work-pushed":
      return {
        ...(work ?? { ...NO_WORK, branch: body.branch }),
        push: { remote: body.remote, commit: body.commit, by: body.by, refused: null },
      };
    case "work-push-refused":
      return {
        ...(work ?? { ...NO_WORK, branch: body.branch }),
        push: { remote: body.remote, commit: null, by: body.by, refused: body.reason },
      };
    case "pull-request-opened":
      return {
        ...(work ?? { ...NO_WORK, branch: body.branch }),
        pullRequest: { number: body.number, url: body.url, by: body.by },
      };
    case "work-saved":
      return {
        ...(work?.push ? { push: work.push } : {}),
        ...(work?.pullRequest ? { pullRequest: work.pullRequest } : {}),
        state: "saved",
        branch: body.branch,
        commit: body.commit,
        files: body.files,
        by: body.by,
        secretsOverridden: body.secretsOverridden,
      };
    case "work-merged":
      return {
        ...(work ?? { files: [], secretsOverridden: false }),
        state: "merged",
        branch: body.branch,
        commit: body.commit,
        by: body.by,
      };
    case "work-discarded":
      return {
        state: "discarded",
        branch: body.branch,
        commit: null,
        files: [],
        by: body.by,
        secretsOverridden: false,
      };
  }
}
