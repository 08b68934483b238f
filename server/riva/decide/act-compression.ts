import type { EventInput } from "@/server/domain/events/schema";
import type { CompressedItem } from "@/server/domain/events/tier-schema";
import type { IntentionView } from "@/server/domain/session/view";
import type { CompressionRecord, DroppedItem } from "@/server/model/context/record";

/**
 * The `context-compressed` event of an act request, when there is news: one when the built context
 * dropped, shortened or collapsed something, and none when it dropped exactly what the intention's
 * last recorded compression dropped (same items, same hashes) — so the log does not grow with every
 * cycle that changes nothing in what the model is not shown.
 */

/** Items kept in the event; the counts are complete. */
const LISTED_ITEMS = 200;

function listed(item: DroppedItem): CompressedItem {
  return {
    item: item.item,
    ...(item.id === undefined ? {} : { id: item.id }),
    how: item.how,
    sha256: item.sha256,
    chars: item.chars,
    ...(item.label === undefined ? {} : { label: item.label.slice(0, 300) }),
  };
}

const key = (item: Pick<CompressedItem, "item" | "id" | "how" | "sha256">) =>
  `${item.item}|${item.id ?? ""}|${item.how}|${item.sha256}`;

function counts(dropped: readonly Pick<DroppedItem, "how">[]) {
  const count = (how: DroppedItem["how"]) => dropped.filter((item) => item.how === how).length;
  return { omitted: count("omitted"), shortened: count("shortened"), collapsed: count("collapsed") };
}

/** True when `record` drops the same set as the intention's last compression event. */
export function sameAsLast(intention: Pick<IntentionView, "compressed">, record: CompressionRecord): boolean {
  const last = intention.compressed;
  if (!last) return false;
  const now = counts(record.dropped);
  if (now.omitted !== last.omitted || now.shortened !== last.shortened || now.collapsed !== last.collapsed)
    return false;
  const a = record.dropped.slice(0, LISTED_ITEMS).map(key).sort();
  const b = last.dropped.map(key).sort();
  return a.length === b.length && a.every((entry, index) => entry === b[index]);
}

export function compressionEvent(
  runId: string,
  intention: Pick<IntentionView, "id" | "compressed">,
  record: CompressionRecord,
): EventInput | null {
  if (record.dropped.length === 0 || sameAsLast(intention, record)) return null;
  return {
    type: "context-compressed",
    runId,
    intentionId: intention.id,
    stage: "act",
    triggers: record.triggers,
    ...counts(record.dropped),
    keptChars: record.keptChars,
    dropped: record.dropped.slice(0, LISTED_ITEMS).map(listed),
  };
}
