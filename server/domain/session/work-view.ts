import type { EventOf } from "@/server/domain/events/schema";

/** What became of the session's work in the project's repository. */
export interface WorkView {
  state: "saved" | "merged" | "discarded";
  branch: string;
  commit: string | null;
  files: string[];
  by: string;
  secretsOverridden: boolean;
}

type WorkEvent = EventOf<"work-saved"> | EventOf<"work-merged"> | EventOf<"work-discarded">;

/** The session's work after one of its work events (part of the session fold). */
export function foldWork(work: WorkView | null, body: WorkEvent): WorkView {
  switch (body.type) {
    case "work-saved":
      return {
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
