import type { Criterion } from "@/server/domain/contract/criteria";

/**
 * What a contract whose source is "request" says about itself. "request" covers two cases: an
 * intention that is itself a command ("run `make`", checked by exactly that command) and checks the
 * intention's own words name ("create `a.txt` containing `hi`").
 */
export function requestSourceNote(criteria: readonly Criterion[]): string {
  return criteria.length === 1 && criteria[0]?.kind === "TESTS_PASS"
    ? "The intention is itself a command: only that exact command exiting 0 verifies it."
    : "Checks read from the intention's own words (the acceptance named none).";
}
