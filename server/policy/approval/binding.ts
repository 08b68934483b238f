import { createHash, timingSafeEqual } from "node:crypto";
import { canonicalJson } from "@/server/domain/text/canonical-json";

/**
 * Binds an approval to exactly what will run. The binding is a SHA-256 over a canonical JSON of the
 * tool name and its parsed input (object keys sorted, nothing but JSON values), so the dispatch can
 * check, right before executing, that the call it is about to run is the one a person approved and not
 * an edited or re-generated variant.
 */

const PREFIX = "sha256:";

/** `sha256:<hex>` over `{"input":…,"tool":…}`. Throws TypeError for input that is not JSON data. */
export function approvalBinding(tool: string, input: unknown): string {
  const digest = createHash("sha256").update(canonicalJson({ tool, input }), "utf8").digest("hex");
  return `${PREFIX}${digest}`;
}

/** True only when `binding` was made for exactly this tool and input. */
export function verifyBinding(binding: string, tool: string, input: unknown): boolean {
  let expected: string;
  try {
    expected = approvalBinding(tool, input);
  } catch (error) {
    if (error instanceof TypeError) return false;
    throw error;
  }
  const a = Buffer.from(binding, "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}
