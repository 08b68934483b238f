import { createHash, timingSafeEqual } from "node:crypto";
import canonicalize from "canonicalize";
import { canonicalJson } from "@/server/domain/text/canonical-json";

/**
 * Binds an approval to exactly what will run. The binding is a SHA-256 over a canonical JSON of the
 * tool name and its parsed input (object keys sorted, nothing but JSON values), so the dispatch can
 * check, right before executing, that the call it is about to run is the one a person approved and not
 * an edited or re-generated variant.
 *
 * Each binding says which canonical form it hashes, so a change of form never breaks an approval that
 * is already stored (pending in a database, or a standing scope grant):
 * - `v2:sha256:<hex>` (made now): RFC 8785 (JSON Canonicalization Scheme, the `canonicalize` package)
 *   over a value that `canonicalJson` accepts as plain JSON data;
 * - `sha256:<hex>` (no version, made before): Arbor's own `canonicalJson`. For plain JSON data without
 *   lone surrogates both forms are the same text, but old bindings are checked with the old function.
 */

const V2 = "v2:sha256:";
const V1 = "sha256:";

/** RFC 8785 text of a plain JSON value; TypeError for anything else (a lone surrogate included). */
function jcs(value: unknown): string {
  canonicalJson(value); // refuses what JSON would silently change (NaN, Dates, cycles…) with a TypeError
  try {
    const text = canonicalize(value);
    if (text === undefined) throw new TypeError("cannot bind a value with no JSON form");
    return text;
  } catch (error) {
    if (error instanceof TypeError) throw error;
    throw new TypeError(`cannot bind this value: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function digest(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** `v2:sha256:<hex>` over `{"input":…,"tool":…}`. Throws TypeError for input that is not JSON data. */
export function approvalBinding(tool: string, input: unknown): string {
  return `${V2}${digest(jcs({ tool, input }))}`;
}

/** The binding `binding`'s own version would make for this call (null: an unknown version). */
function expectedFor(binding: string, tool: string, input: unknown): string | null {
  if (binding.startsWith(V2)) return approvalBinding(tool, input);
  if (binding.startsWith(V1)) return `${V1}${digest(canonicalJson({ tool, input }))}`;
  return null;
}

/** True only when `binding` was made for exactly this tool and input, by whichever version made it. */
export function verifyBinding(binding: string, tool: string, input: unknown): boolean {
  let expected: string | null;
  try {
    expected = expectedFor(binding, tool, input);
  } catch (error) {
    if (error instanceof TypeError) return false;
    throw error;
  }
  if (expected === null) return false;
  const a = Buffer.from(binding, "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}
