import {
  type ChatRequest,
  type FakeReply,
  intentionText,
  systemText,
  toolResultCount,
  toolResults,
} from "./request";
import { splitSteps } from "./steps";

/** The fake model's warmup (the reasoning stage before acting): by default, and with research first. */

/** The warmup stage's request, by its stage prompt (prompts/stage-warmup.md); it offers read tools. */
export function isWarmup(request: ChatRequest): boolean {
  return systemText(request).includes("This step: plan before acting");
}

/** Written only in the warmup's Analyze section, so tests can prove it never reaches a later request. */
export const WARMUP_ANALYSIS_MARK = "full analysis kept out of later requests";

export function warmupReply(request: ChatRequest): FakeReply {
  const task = (
    /The request:\s*\n\s*\n([\s\S]*?)\n\s*\nWhat intent discovery/.exec(intentionText(request))?.[1] ?? ""
  )
    .trim()
    .replace(/\s+/g, " ");
  const steps = splitSteps(task);
  const first = steps[0] ?? task;
  const text = [
    "<ide_reasoning>",
    `- **Analyze**: the person asks for "${task}" (${WARMUP_ANALYSIS_MARK}).`,
    "- **Research**: the files and commands the request names.",
    `- **Plan**: ${steps.map((step, index) => `${index + 1}. ${step}`).join("; ")}.`,
    "- **Reflect**: a command may fail; read its error before retrying.",
    `- **Action**: start with ${first}.`,
    "- **Delivery**: NEEDS_WORK",
    "</ide_reasoning>",
    `First I will ${first}.`,
  ].join("\n");
  return { type: "text", text };
}

/**
 * The fake model's warmup with research (scenario "warmup-reads"): it looks at the repository first —
 * `git_status` and `fs_list` in one turn, answered through the engine's read port — and then writes the
 * default warmup, its Research line quoting what the listing returned, so a test can tell the reads
 * reached the model.
 */

/** Written in the Research line after the reads, followed by the start of the listing it got back. */
export const WARMUP_READ_MARK = "looked at the repository:";

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
  const seen = toolResults(request).join(" ").replace(/\s+/g, " ").slice(0, 160);
  const text = reply.text.replace(
    /- \*\*Research\*\*: [^\n]*/,
    `- **Research**: ${WARMUP_READ_MARK} ${seen.replace(/\$/g, "")}`,
  );
  return { type: "text", text };
}
