import { UserSettings } from "@/server/domain/settings/user-config";

/** The form's fields as typed: every one a string, "" meaning "as the layers below say". */
export interface Draft {
  modelName: string;
  timeoutSeconds: string;
  decompositions: string;
  commands: string;
  judgeAction: string;
  verifyIntegration: string;
  reviewReflection: string;
  qaReview: string;
  maxIterations: string;
  maxDepth: string;
  maxCyclesPerIntention: string;
  wallClockSeconds: string;
  maxCostUsd: string;
  maxTokens: string;
}

/** Only the values that make a run stricter are offered: a looser stored one shows (and saves) as unset. */
const STRICT_CHOICES: Record<string, readonly string[]> = {
  decompositions: ["ask"],
  commands: ["ask-always", "ask-unlisted"],
  judgeAction: ["ask"],
  verifyIntegration: ["ask"],
  reviewReflection: ["ask"],
  qaReview: ["on"],
};

const text = (value: number | undefined) => (value === undefined ? "" : String(value));
const choice = (key: string, value: string | undefined) =>
  value !== undefined && STRICT_CHOICES[key]?.includes(value) ? value : "";

export function draftOf(settings: UserSettings): Draft {
  const checkpoints = settings.checkpoints ?? {};
  const limits = settings.limits ?? {};
  const budgets = settings.budgets ?? {};
  const timeoutMs = settings.model?.timeoutMs;
  return {
    modelName: settings.model?.name ?? "",
    timeoutSeconds: timeoutMs === undefined ? "" : String(timeoutMs / 1000),
    decompositions: choice("decompositions", checkpoints.decompositions),
    commands: choice("commands", checkpoints.commands),
    judgeAction: choice("judgeAction", checkpoints.judgeAction),
    verifyIntegration: choice("verifyIntegration", checkpoints.verifyIntegration),
    reviewReflection: choice("reviewReflection", checkpoints.reviewReflection),
    qaReview: choice("qaReview", checkpoints.qaReview),
    maxIterations: text(limits.maxIterations),
    maxDepth: text(limits.maxDepth),
    maxCyclesPerIntention: text(limits.maxCyclesPerIntention),
    wallClockSeconds: text(limits.wallClockSeconds),
    maxCostUsd: text(budgets.maxCostUsd),
    maxTokens: text(budgets.maxTokens),
  };
}

const LABELS: Record<string, string> = {
  "model.name": "Model name",
  "model.timeoutMs": "Model timeout",
  "limits.maxIterations": "Actions per run",
  "limits.maxDepth": "Decomposition depth",
  "limits.maxCyclesPerIntention": "Cycles per intention",
  "limits.wallClockSeconds": "Run time",
  "budgets.maxCostUsd": "Cost per run",
  "budgets.maxTokens": "Tokens per run",
};

/** Keys present only when set: "" leaves a field to the layers below; numbers are parsed, not coerced. */
function compact<T extends Record<string, unknown>>(entries: T): Partial<T> | undefined {
  const kept = Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
  return Object.keys(kept).length > 0 ? (kept as Partial<T>) : undefined;
}

const numberOf = (value: string) => (value.trim() === "" ? undefined : Number(value.trim()));
const stringOf = (value: string) => (value.trim() === "" ? undefined : value.trim());

/**
 * The layer to save: the draft's fields over what was stored (keys the form does not show, such as
 * command lists, are kept), checked with the server's own schema so a problem is named before saving.
 */
export function settingsOf(
  draft: Draft,
  stored: UserSettings,
): { ok: true; settings: UserSettings } | { ok: false; problem: string } {
  const timeout = numberOf(draft.timeoutSeconds);
  const { decompositions, commands, judgeAction, verifyIntegration, reviewReflection, qaReview, ...rest } =
    stored.checkpoints ?? {};
  const candidate = compact({
    model: compact({
      name: stringOf(draft.modelName),
      timeoutMs: timeout === undefined ? undefined : Math.round(timeout * 1000),
    }),
    checkpoints: compact({
      ...rest,
      decompositions: stringOf(draft.decompositions),
      commands: stringOf(draft.commands),
      judgeAction: stringOf(draft.judgeAction),
      verifyIntegration: stringOf(draft.verifyIntegration),
      reviewReflection: stringOf(draft.reviewReflection),
      qaReview: stringOf(draft.qaReview),
    }),
    limits: compact({
      maxIterations: numberOf(draft.maxIterations),
      maxDepth: numberOf(draft.maxDepth),
      maxCyclesPerIntention: numberOf(draft.maxCyclesPerIntention),
      wallClockSeconds: numberOf(draft.wallClockSeconds),
    }),
    budgets: compact({ maxCostUsd: numberOf(draft.maxCostUsd), maxTokens: numberOf(draft.maxTokens) }),
  });
  const parsed = UserSettings.safeParse(candidate ?? {});
  if (parsed.success) return { ok: true, settings: parsed.data };
  const issue = parsed.error.issues[0];
  const key = issue?.path.join(".") ?? "";
  const value = issue?.code === "invalid_type" && issue.expected === "number" ? "a number" : null;
  return {
    ok: false,
    problem: `${LABELS[key] ?? key}: ${value ? `must be ${value}` : (issue?.message ?? "invalid")}`,
  };
}
