/**
 * What the fake model server reads from a request, whichever wire it came over (OpenAI's chat
 * completions or Anthropic's messages): the request and reply shapes, and the readers every scripted
 * reply shares. Everything here is pure and depends only on the request.
 */

export interface ChatMessage {
  role: string;
  content?: unknown;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** Names of the function tools offered, in request order. */
  toolNames: string[];
  stream: boolean;
  headers: Record<string, string | undefined>;
}

/** `arguments` that are a string are sent as-is, so a rule can send JSON that does not parse. */
export interface FakeToolCall {
  name: string;
  arguments: unknown;
}

export type FakeReply =
  /** `chunkDelayMs`: when streamed, wait this long between pieces (so a page can see it grow). */
  | { type: "text"; text: string; chunkDelayMs?: number }
  /** `text`: written next to the calls (with reasoning on, a model's reflection). */
  | { type: "tool-calls"; calls: FakeToolCall[]; text?: string }
  | { type: "http-error"; status: number; message: string }
  | { type: "delay"; ms: number; reply: FakeReply };

export interface ScenarioRule {
  description: string;
  match(request: ChatRequest): boolean;
  reply(request: ChatRequest): FakeReply;
}

export interface Scenario {
  name: string;
  rules: ScenarioRule[];
}

export function textOf(message: ChatMessage): string {
  if (typeof message.content === "string") return message.content;
  if (!Array.isArray(message.content)) return "";
  return message.content
    .map((part: unknown) =>
      typeof part === "object" && part !== null && "text" in part && typeof part.text === "string"
        ? part.text
        : "",
    )
    .join("");
}

function userTexts(request: ChatRequest): string[] {
  return request.messages.filter((message) => message.role === "user").map(textOf);
}

/** The intention is the first user message; later user messages are corrective re-asks. */
export function intentionText(request: ChatRequest): string {
  return userTexts(request)[0] ?? "";
}

export function isReAsk(request: ChatRequest): boolean {
  return userTexts(request).length > 1;
}

export const offers = (name: string) => (request: ChatRequest) => request.toolNames.includes(name);

export function backticked(text: string): string | undefined {
  return /`([^`\n]+)`/.exec(text)?.[1]?.trim() || undefined;
}

/** Tool results sent back in this turn: OpenAI's `tool` messages, Anthropic's `tool_result` blocks. */
export function toolResultCount(request: ChatRequest): number {
  return request.messages.filter(
    (message) =>
      message.role === "tool" ||
      (Array.isArray(message.content) &&
        message.content.some(
          (part: unknown) =>
            typeof part === "object" && part !== null && "type" in part && part.type === "tool_result",
        )),
  ).length;
}

/** The system prompt's text (the first `system` message). */
export function systemText(request: ChatRequest): string {
  const system = request.messages.find((message) => message.role === "system");
  return system ? textOf(system) : "";
}

/** The question is the last user message (earlier ones are the session's history). */
export function lastUserText(request: ChatRequest): string {
  return userTexts(request).at(-1) ?? "";
}

/** Tool results sent back so far: one message per call, in the order they were made. */
export function toolResults(request: ChatRequest): string[] {
  return request.messages.filter((message) => message.role === "tool").map(textOf);
}
