import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { ChildProposal } from "@/server/domain/events/schema";
import { IntentFields, ScopeGlob } from "@/server/intents/project-intent";
import { SignUpInput } from "./routers/auth";
import { CreateProjectInput } from "./routers/project";
import { TeamName } from "./routers/team";
import { CommitMessage, DecisionReason, EditedCommand, TaskText } from "./user-text";

/** Every cap on text a person types: at the cap it passes, at cap + 1 the person reads why it did not. */

type Case = { name: string; schema: z.ZodType; at: (n: number) => unknown; cap: number; message: RegExp };

const intent = (fields: Record<string, unknown>) => ({ name: "auth", ownedScope: ["src/**"], ...fields });
const x = (n: number) => "x".repeat(n);

const signUp = (fields: Record<string, unknown>) => ({
  name: "Ada",
  email: "ada@example.com",
  password: "x".repeat(8),
  ...fields,
});

const CASES: Case[] = [
  {
    name: "your name",
    schema: SignUpInput,
    at: (n) => signUp({ name: x(n) }),
    cap: 100,
    message: /name has at most 100/,
  },
  {
    name: "password",
    schema: SignUpInput,
    at: (n) => signUp({ password: x(n) }),
    cap: 200,
    message: /at most 200/,
  },
  {
    name: "project name",
    schema: CreateProjectInput,
    at: (n) => ({ name: x(n) }),
    cap: 100,
    message: /at most 100/,
  },
  {
    name: "repository address",
    schema: CreateProjectInput,
    at: (n) => ({ name: "p", sourceUrl: x(n) }),
    cap: 2_000,
    message: /at most 2,000/,
  },
  { name: "team name", schema: TeamName, at: x, cap: 100, message: /at most 100/ },
  { name: "task", schema: TaskText, at: x, cap: 100_000, message: /at most 100,000 characters/ },
  { name: "edited command", schema: EditedCommand, at: x, cap: 20_000, message: /at most 20,000 characters/ },
  {
    name: "rejection reason",
    schema: DecisionReason,
    at: x,
    cap: 2_000,
    message: /at most 2,000 characters/,
  },
  { name: "commit message", schema: CommitMessage, at: x, cap: 2_000, message: /at most 2,000 characters/ },
  {
    name: "a child's step",
    schema: ChildProposal,
    at: (n) => ({ what: x(n), acceptance: "" }),
    cap: 2_000,
    message: /A step has at most 2,000 characters/,
  },
  {
    name: "a child's acceptance",
    schema: ChildProposal,
    at: (n) => ({ what: "w", acceptance: x(n) }),
    cap: 2_000,
    message: /An acceptance has at most 2,000 characters/,
  },
  {
    name: "owned_scope glob",
    schema: ScopeGlob,
    at: (n) => `${x(n - 3)}/**`,
    cap: 300,
    message: /at most 300/,
  },
  {
    name: "intent name",
    schema: IntentFields,
    at: (n) => intent({ name: x(n) }),
    cap: 200,
    message: /name has at most 200 characters/,
  },
  {
    name: "intent constraint",
    schema: IntentFields,
    at: (n) => intent({ constraints: [x(n)] }),
    cap: 500,
    message: /constraint has at most 500 characters/,
  },
  {
    name: "intent acceptance criterion",
    schema: IntentFields,
    at: (n) => intent({ acceptanceCriteria: [x(n)] }),
    cap: 500,
    message: /acceptance criterion has at most 500 characters/,
  },
];

describe("caps on text a person types", () => {
  it.each(CASES)("$name: accepted at the cap, refused at cap + 1 with a clear message", (entry) => {
    expect(entry.schema.safeParse(entry.at(entry.cap)).success).toBe(true);
    const over = entry.schema.safeParse(entry.at(entry.cap + 1));
    expect(over.success).toBe(false);
    const messages = over.error?.issues.map((issue) => issue.message).join("; ") ?? "";
    expect(messages).toMatch(entry.message);
    expect(messages).not.toMatch(/Too big/);
  });
});
