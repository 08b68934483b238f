import { type ChatRequest, type FakeReply, intentionText, systemText } from "./request";

/**
 * The fake model as full mode's roles. The Librarian ranks the listed files the intention names
 * (else the first three); the Critic approves, except a change for an intention marked
 * "(critic-revise)", which it always sends back — so a test sees a change fail before anyone is asked.
 */

export function rankFilesReply(request: ChatRequest): FakeReply {
  const listing = systemText(request).split("## The workspace")[1] ?? "";
  const files = listing
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && line !== "(none)" && !line.startsWith("…"));
  const intention = intentionText(request);
  const named = files.filter(
    (file) => intention.includes(file) || intention.includes(file.split("/").at(-1) ?? file),
  );
  const ranked = (named.length > 0 ? named : files.slice(0, 3)).map((path) => ({
    path,
    why: named.includes(path) ? "the intention names it" : "near the top of the workspace",
  }));
  const summary = `${ranked.length} file${ranked.length === 1 ? "" : "s"} for the Artisan`;
  return { type: "tool-calls", calls: [{ name: "rank_files", arguments: { files: ranked, summary } }] };
}

export function submitReviewReply(request: ChatRequest): FakeReply {
  const revise = intentionText(request).includes("(critic-revise)");
  const review = revise
    ? {
        verdict: "revise",
        issues: ["the fake Critic sends back every change for a (critic-revise) intention"],
        summary: "not yet",
      }
    : { verdict: "approve", issues: [], summary: "the change does what the intention asks" };
  return { type: "tool-calls", calls: [{ name: "submit_review", arguments: review }] };
}

/** Chaos: a shell test that the intention's file exists and is not empty (else that `true` holds). */
export function adversarialTestReply(request: ChatRequest): FakeReply {
  const target = /`([^`\s]+\.[\w]+)`/.exec(intentionText(request))?.[1];
  const path = "tests/chaos.check.sh";
  const content = target ? `test -s '${target.replace(/'/g, "")}'\n` : "true\n";
  const args = {
    path,
    content,
    command: `sh ${path}`,
    attack: target ? `an empty ${target}` : "nothing to attack",
  };
  return { type: "tool-calls", calls: [{ name: "propose_adversarial_test", arguments: args }] };
}
