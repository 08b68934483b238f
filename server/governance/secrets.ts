import { capEnd } from "@/server/domain/text/cap";
/**
 * Finds secrets in text about to be written or committed (seed 004: "never commit secrets"). A finding
 * makes the approval gate ask instead of approving; it never blocks on its own, because test fixtures
 * and documentation contain key-shaped strings too. Previews are redacted: a finding shows where the
 * secret is and what kind it is, never the secret itself, since findings end up in events and the UI.
 */

export const SECRET_KINDS = [
  "private-key",
  "aws-access-key-id",
  "aws-secret-access-key",
  "github-token",
  "openai-key",
  "slack-token",
  "slack-webhook",
  "generic-assignment",
  "env-file",
] as const;
export type SecretKind = (typeof SECRET_KINDS)[number];

export interface SecretFinding {
  kind: SecretKind;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
  /** The line with every secret on it redacted, shortened to ~160 characters. */
  preview: string;
}

interface Detector {
  kind: SecretKind;
  /** Needs the `g` and `d` flags; `group` is the part that is secret. */
  pattern: RegExp;
  group: number;
  accept?: (secret: string) => boolean;
  /** The match is a marker, not the secret (a PEM header): show it as it is. */
  marker?: boolean;
}

const GENERIC_KEY =
  "[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|client[_-]?secret|private[_-]?key)[A-Za-z0-9_]*";

// Specific detectors first: when a generic `api_key=` assignment holds an `sk-…` key, the finding
// names the specific kind and the overlapping generic match is dropped.
const DETECTORS: readonly Detector[] = [
  {
    kind: "private-key",
    pattern: /-----BEGIN (?:(?:RSA|EC|DSA|OPENSSH|ENCRYPTED|PGP) )?PRIVATE KEY(?: BLOCK)?-----/dg,
    group: 0,
    marker: true,
  },
  { kind: "aws-access-key-id", pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/dg, group: 0 },
  {
    kind: "aws-secret-access-key",
    pattern: /aws_?secret_?access_?key["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/dgi,
    group: 1,
  },
  {
    kind: "github-token",
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/dg,
    group: 0,
  },
  {
    kind: "openai-key",
    pattern: /\bsk-(?:proj-|svcacct-|admin-|ant-)?[A-Za-z0-9_-]{20,}/dg,
    group: 0,
    accept: (secret) => /[0-9]/.test(secret) && /[A-Za-z]/.test(secret.slice(3)),
  },
  { kind: "slack-token", pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/dg, group: 0 },
  { kind: "slack-webhook", pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]+/dg, group: 0 },
  {
    kind: "generic-assignment",
    pattern: new RegExp(`\\b${GENERIC_KEY}["']?\\s*[:=]\\s*["']?([^\\s"'\`,;]{8,})`, "dgi"),
    group: 1,
    accept: looksRandom,
  },
];

/** Environment files by name; `.env.example` and friends are meant to be committed. */
const ENV_FILE = /^\.env(?:\..+)?$/;
const ENV_TEMPLATE = /\.(?:example|sample|template|dist)$/;

export function isEnvFileName(fileName: string): boolean {
  const base = fileName.slice(fileName.lastIndexOf("/") + 1);
  return ENV_FILE.test(base) && !ENV_TEMPLATE.test(base);
}

export function detectSecrets(text: string, options: { fileName?: string } = {}): SecretFinding[] {
  const findings: SecretFinding[] = [];
  if (options.fileName !== undefined && isEnvFileName(options.fileName)) {
    const base = options.fileName.slice(options.fileName.lastIndexOf("/") + 1);
    findings.push({ kind: "env-file", line: 1, column: 1, preview: `${base} is an environment file` });
  }
  text.split(/\r?\n/).forEach((line, index) => {
    const hits = findOnLine(line);
    const preview = redactLine(line, hits);
    for (const hit of hits)
      findings.push({ kind: hit.kind, line: index + 1, column: hit.start + 1, preview });
  });
  return findings;
}

interface Hit {
  kind: SecretKind;
  start: number;
  end: number;
  marker: boolean;
}

function findOnLine(line: string): Hit[] {
  const hits: Hit[] = [];
  for (const detector of DETECTORS) {
    for (const match of line.matchAll(detector.pattern)) {
      const range = match.indices?.[detector.group];
      const secret = match[detector.group];
      if (!range || secret === undefined) continue;
      if (detector.accept && !detector.accept(secret)) continue;
      const [start, end] = range;
      if (hits.some((hit) => start < hit.end && hit.start < end)) continue;
      hits.push({ kind: detector.kind, start, end, marker: detector.marker ?? false });
    }
  }
  return hits.sort((a, b) => a.start - b.start);
}

const MAX_PREVIEW = 160;

function redactLine(line: string, hits: readonly Hit[]): string {
  let result = "";
  let cursor = 0;
  for (const hit of hits) {
    const secret = line.slice(hit.start, hit.end);
    result += line.slice(cursor, hit.start) + (hit.marker ? secret : redact(secret));
    cursor = hit.end;
  }
  result = (result + line.slice(cursor)).trim();
  return capEnd(result, MAX_PREVIEW);
}

/** Keeps at most a fifth (and at most 4 characters) of the secret, enough to recognise which one. */
export function redact(secret: string): string {
  const shown = Math.min(4, Math.floor(secret.length / 5));
  return `${secret.slice(0, shown)}…[redacted ${secret.length} chars]`;
}

/** Shannon entropy in bits per character. */
export function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

const PLACEHOLDER =
  /^(?:x+|\*+|\.+|changeme|example|placeholder|redacted|your[_-].*|<.*>|\{\{.*\}\}|\$.*|%.*%)$/i;
const CODE_REFERENCE =
  /[()]|^(?:process\.env|os\.environ|import\.meta\.env)|^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;

/** A value that looks like a real credential rather than code, a placeholder or an English word. */
function looksRandom(value: string): boolean {
  if (PLACEHOLDER.test(value) || CODE_REFERENCE.test(value)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(value)).length;
  return classes >= 2 && entropy(value) >= 3;
}
