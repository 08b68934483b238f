/**
 * The words of context compression, in a file with no Node imports: the event schema (which the
 * browser folds too) validates compression events against them.
 */

export const COMPRESSION_TRIGGERS = ["message_count", "token_estimate", "history_cap"] as const;
export type CompressionTrigger = (typeof COMPRESSION_TRIGGERS)[number];

export const DROP_KINDS = ["omitted", "shortened", "collapsed", "reasoning_stripped"] as const;
export type DropKind = (typeof DROP_KINDS)[number];

/**
 * What a dropped item was: an earlier attempt, a verified subtree collapsed to one line, an intention
 * of the chain shortened (never removed), the contract or repository context shortened, and the chat
 * history's messages and reasoning blocks.
 */
export const CONTEXT_ITEM_KINDS = [
  "attempt",
  "finished_subtree",
  "intention",
  "contract",
  "repo_context",
  "instructions",
  "message",
  "reasoning",
] as const;
export type ContextItemKind = (typeof CONTEXT_ITEM_KINDS)[number];
