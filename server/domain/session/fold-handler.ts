import type { EventOf, EventType, StoredEvent } from "@/server/domain/events/schema";
import type { SessionView } from "@/server/domain/session/view";

/** How one event type changes the session view, in place (fold.ts's `FOLDS`). */
export type FoldOf<T extends EventType> = (view: SessionView, body: EventOf<T>, event: StoredEvent) => void;

/** One fold per event type of the union: a missing type is a type error. */
export type EventFolds = { [T in EventType]: FoldOf<T> };
