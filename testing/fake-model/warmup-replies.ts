import { type ChatRequest, type FakeReply, textOf, toolResultCount, warmupReply } from "./scenarios";

/**
 * The fake model's warmup with research (scenario "warmup-reads"): it looks at the repository first —
 * `git_status` and `fs_list` in one turn, answered through the engine's read port — and then writes the
 * default warmup, its Research line quoting what the listing returned, so a test can tell the reads
 * reached the model.
 */

/** Written in the Research line after the reads, followed by the start of the listing it got back. */
export const WARMUP_READ_MARK = "looked at the repository:";

function toolResultTexts(request: ChatRequest): string[] {
  return request.messages.filter((message) => message.role === "tool").map(textOf);
}

export function warmupReadsReply(request: ChatRequest): FakeReply {
  if (toolResultCount(request) === 0) {
    return {
      type: "tool-calls",
      calls: [
        { name: "git_status", arguments: {} },
        { name: "fs_list", arguments: { path: "." } },
      ],
    };
  }
  const reply = warmupReply(request);
  if (reply.type !== "text") return reply;
  const seen = toolResultTexts(request).join(" ").replace(/\s+/g, " ").slice(0, 160);
  const text = reply.text.replace(
    /- \*\*Research\*\*: [^\n]*/,
    `- **Research**: ${WARMUP_READ_MARK} ${seen.replace(/\$/g, "")}`,
  );
  return { type: "text", text };
}
