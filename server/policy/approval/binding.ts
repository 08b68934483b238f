import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Binds an approval to exactly what will run. The binding is a SHA-256 over a canonical JSON of the
 * tool name and its parsed input (object keys sorted, nothing but JSON values), so the dispatch can
 * check, right before executing, that the call it is about to run is the one a person approved and not
 * an edited or re-generated variant.
 */

const PREFIX = "sha256:";

/** JSON with sorted keys; refuses values JSON would silently change (undefined in arrays, NaN, Dates). */
export function canonicalJson(value: unknown): string {
  return encode(value, new Set());
}

function encode(value: unknown, seen: Set<object>): string {
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`cannot bind a non-finite number (${value})`);
    return JSON.stringify(value);
  }
  if (typeof value !== "object") throw new TypeError(`cannot bind a value of type ${typeof value}`);
  if (seen.has(value)) throw new TypeError("cannot bind a value that contains itself");
  seen.add(value);
  let encoded: string;
  if (Array.isArray(value)) {
    encoded = `[${value.map((item) => encode(item, seen)).join(",")}]`;
  } else {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null)
      throw new TypeError("cannot bind an object that is not plain JSON data");
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    encoded = `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${encode(item, seen)}`).join(",")}}`;
  }
  seen.delete(value);
  return encoded;
}

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
