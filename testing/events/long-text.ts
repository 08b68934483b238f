/** A pasted stack trace of exactly `chars` characters, as a person would give it for a task. */
export function stackTrace(chars: number): string {
  const lines = ["fix this crash:", "TypeError: Cannot read properties of undefined (reading 'id')"];
  for (let i = 0; lines.join("\n").length < chars; i++)
    lines.push(`    at handler${i} (/workspace/src/module${i % 17}.js:${i + 1}:${(i % 80) + 1}) and then`);
  return lines.join("\n").slice(0, chars);
}
