import { z } from "zod";
import {
  AgentTraceRecord,
  ARBOR_METADATA_KEY,
  arborMetadataOf,
  TraceRecordedBody,
} from "@/server/domain/events/trace-schema";
import type { IntentionView } from "@/server/domain/session/view";

/**
 * The ledger as files a person or tool can take away: `agent_trace.jsonl` (one Agent Trace record
 * per line) and `intent_map.md` (which intention touched which files). Pure.
 */

/**
 * Every trace record of a session's events, in log order. Reads `body.type` as a plain string and
 * narrows with `TraceRecordedBody`, so it works whether or not the event union has the type yet;
 * a malformed body is skipped.
 */
export function recordsFromEvents(events: ReadonlyArray<{ body: unknown }>): AgentTraceRecord[] {
  const records: AgentTraceRecord[] = [];
  for (const event of events) {
    const body = event.body as { type?: unknown } | null;
    if (body?.type !== "trace-recorded") continue;
    const parsed = TraceRecordedBody.safeParse(body);
    if (parsed.success) records.push(...parsed.data.records);
  }
  return records;
}

/**
 * Each Arbor record with the evidence its intention was verified on, as the log stands at export
 * (issue #15): a record is written when the cycle changes files, before anything is verified, so
 * the kind is added here. Records of intentions not verified carry `evidence: null`; records another
 * tool wrote, or without an intention, are left as they are.
 */
export function withEvidence(
  records: readonly AgentTraceRecord[],
  intentions: Readonly<Record<string, Pick<IntentionView, "status" | "evidence" | "acceptedBy">>>,
): AgentTraceRecord[] {
  return records.map((record) => {
    const meta = arborMetadataOf(record);
    const intention = meta?.intention_id ? intentions[meta.intention_id] : undefined;
    if (!meta || !intention) return record;
    const evidence = intention.status === "VERIFIED" ? (intention.evidence ?? null) : null;
    const acceptedBy = evidence === "accepted-by-person" ? (intention.acceptedBy ?? null) : null;
    const arbor = { ...(record.metadata?.[ARBOR_METADATA_KEY] as object), evidence, accepted_by: acceptedBy };
    return { ...record, metadata: { ...record.metadata, [ARBOR_METADATA_KEY]: arbor } };
  });
}

/** `agent_trace.jsonl`: one record per line, newline-terminated; empty for no records. */
export function toJsonl(records: readonly AgentTraceRecord[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join("");
}

/** Parses `agent_trace.jsonl` back, checking each line against the record schema. */
export function parseJsonl(
  text: string,
): { ok: true; records: AgentTraceRecord[] } | { ok: false; line: number; message: string } {
  const records: AgentTraceRecord[] = [];
  const lines = text.split("\n");
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      return { ok: false, line: index + 1, message: error instanceof Error ? error.message : "not JSON" };
    }
    const parsed = AgentTraceRecord.safeParse(value);
    if (!parsed.success) return { ok: false, line: index + 1, message: z.prettifyError(parsed.error) };
    records.push(parsed.data);
  }
  return { ok: true, records };
}

interface FileTouch {
  lines: number;
  ranges: number;
  deleted: boolean;
  cycles: Set<string>;
}

function escapeMd(text: string): string {
  return text.replace(/[\\`*_[\]|<>]/g, (ch) => `\\${ch}`);
}

/**
 * `intent_map.md`: per intention (in first-seen order), the files its cycles wrote with line and
 * range counts, and the files they deleted. Records without Arbor metadata go under "Unattributed".
 */
export function intentMap(
  records: readonly AgentTraceRecord[],
  options: { title?: string; intentionTitles?: Readonly<Record<string, string>> } = {},
): string {
  const byIntention = new Map<string, Map<string, FileTouch>>();
  const touch = (intention: string, path: string): FileTouch => {
    let files = byIntention.get(intention);
    if (!files) {
      files = new Map();
      byIntention.set(intention, files);
    }
    let file = files.get(path);
    if (!file) {
      file = { lines: 0, ranges: 0, deleted: false, cycles: new Set() };
      files.set(path, file);
    }
    return file;
  };
  for (const record of records) {
    const meta = arborMetadataOf(record);
    const intention = meta?.intention_id ?? "";
    const cycle = meta?.cycle_id ?? record.id;
    for (const file of record.files) {
      const entry = touch(intention, file.path);
      entry.deleted = false;
      entry.cycles.add(cycle);
      for (const conversation of file.conversations) {
        for (const range of conversation.ranges) {
          entry.ranges += 1;
          entry.lines += range.end_line - range.start_line + 1;
        }
      }
    }
    for (const path of meta?.deleted_files ?? []) {
      const entry = touch(intention, path);
      entry.deleted = true;
      entry.cycles.add(cycle);
    }
  }
  const out = [`# ${options.title ?? "Intent map"}`, ""];
  if (byIntention.size === 0) {
    out.push("No file changes recorded.", "");
    return out.join("\n");
  }
  for (const [intention, files] of byIntention) {
    const title = intention === "" ? undefined : options.intentionTitles?.[intention];
    const heading =
      intention === "" ? "Unattributed" : `${escapeMd(intention)}${title ? ` — ${escapeMd(title)}` : ""}`;
    out.push(
      `## ${heading}`,
      "",
      "| file | lines written | ranges | cycles |",
      "| --- | ---: | ---: | ---: |",
    );
    const sorted = [...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [path, file] of sorted) {
      const name = `\`${path.replaceAll("`", "'")}\`${file.deleted ? " (deleted)" : ""}`;
      out.push(`| ${name.replaceAll("|", "\\|")} | ${file.lines} | ${file.ranges} | ${file.cycles.size} |`);
    }
    out.push("");
  }
  return out.join("\n");
}
