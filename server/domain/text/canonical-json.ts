/**
 * JSON with object keys sorted at every level, so equal values always encode (and hash) equally. It
 * refuses values JSON would silently change or drop (undefined in arrays, NaN, Infinity, Dates, class
 * instances, cycles) with a TypeError rather than encoding something else than what was given; an
 * object member that is `undefined` is left out, as JSON.stringify does. The approval binding hashes
 * it, so its output for JSON values must never change (binding.test.ts keeps the vectors).
 */
export function canonicalJson(value: unknown): string {
  return encode(value, new Set());
}

function encode(value: unknown, seen: Set<object>): string {
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value))
      throw new TypeError(`canonical JSON cannot hold a non-finite number (${value})`);
    return JSON.stringify(value);
  }
  if (typeof value !== "object")
    throw new TypeError(`canonical JSON cannot hold a value of type ${typeof value}`);
  if (seen.has(value)) throw new TypeError("canonical JSON cannot hold a value that contains itself");
  seen.add(value);
  let encoded: string;
  if (Array.isArray(value)) {
    encoded = `[${value.map((item) => encode(item, seen)).join(",")}]`;
  } else {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null)
      throw new TypeError("canonical JSON cannot hold an object that is not plain JSON data");
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    encoded = `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${encode(item, seen)}`).join(",")}}`;
  }
  seen.delete(value);
  return encoded;
}
