import type { EventOf, StoredEvent } from "@/server/domain/events/schema";

export type WorkspaceChange = EventOf<"workspace-changed">;

/** The newest `workspace-changed` among the first `position` events: the files as they were then. */
export function filesAt(events: readonly StoredEvent[], position: number): WorkspaceChange | null {
  for (let index = Math.min(position, events.length) - 1; index >= 0; index--) {
    const body = events[index]?.body;
    if (body?.type === "workspace-changed") return body;
  }
  return null;
}

export interface FilePatch {
  path: string;
  lines: { kind: "add" | "remove" | "hunk" | "context" | "meta"; text: string }[];
}

/** A `git diff` split per file, each line classified for display. */
export function parsePatch(patch: string): FilePatch[] {
  const files: FilePatch[] = [];
  for (const part of patch.split(/(?=^diff --git )/m)) {
    if (!part.startsWith("diff --git ")) continue;
    const lines = part.replace(/\n$/, "").split("\n");
    const header = /^diff --git a\/(.*) b\/(.*)$/.exec(lines[0] ?? "");
    const path = header?.[2] ?? lines[0] ?? "";
    let inHunks = false;
    files.push({
      path,
      lines: lines.slice(1).map((text) => {
        if (text.startsWith("@@")) {
          inHunks = true;
          return { kind: "hunk", text };
        }
        if (!inHunks) return { kind: "meta", text };
        if (text.startsWith("+")) return { kind: "add", text };
        if (text.startsWith("-")) return { kind: "remove", text };
        return { kind: "context", text };
      }),
    });
  }
  return files;
}
