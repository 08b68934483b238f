import { randomUUID } from "node:crypto";
import type { ModelMessage } from "ai";
import { errorMessage } from "@/server/domain/errors";
import type { EventInput, EventOf } from "@/server/domain/events/schema";
import type { RunView, SessionView } from "@/server/domain/session/view";
import { fsListSpec } from "@/server/domain/tools/fs-list";
import { fsSearchSpec } from "@/server/domain/tools/fs-search";
import type { AnswerTool } from "@/server/model/answer-step";
import { composeSystemPrompt } from "@/server/model/compose-prompt";
import { checkModelRequest } from "@/server/model/request-check";
import type { AgentModel } from "@/server/model/types";
import { type StagePolicy, stagePolicy } from "@/server/policy/stages";
import { llmCalledEvent } from "@/server/riva/decide/run-events";
import { offeredMcpTools } from "@/server/riva/perform/mcp-tools";
import { runWorkspace } from "@/server/riva/perform/run-workspace";
import type { SessionWorkspace } from "@/server/riva/perform/session-workspace";
import type { RivaDeps } from "@/server/riva/ports";
import { stoppedBy } from "@/server/riva/stop";
import { checkpointsOfSession, foldSessionLog, sessionDispatch } from "@/server/runtime/session-runtime";
import { resultText, type ToolCall, type ToolDispatch, type ToolResult } from "@/server/tools/dispatch";
import { toolNamed } from "@/server/tools/registry";
import { toolData } from "@/server/tools/tool-data";
import {
  answerHistory,
  MAX_ANSWER_REQUESTS,
  MAX_ANSWER_TOOL_CALLS,
  screenToolCall,
  summarizeResult,
  targetOf,
  wireToolName,
} from "./answer-loop";
import { answerStream } from "./answer-stream";
import { filesFromSearch, type OfflineFinding, offlineAnswerText, questionKeywords } from "./offline-answer";

export type AnswerRunnerDeps = Pick<
  RivaDeps,
  | "log"
  | "sandboxes"
  | "workspaceOf"
  | "commandTimeoutMs"
  | "logger"
  | "sandboxImage"
  | "checkpointsOf"
  | "priceOf"
  | "workspaceMaxBytes"
  | "mcpToolsOf"
> & { model: AgentModel; promptsDir?: string };

/** Every answer request explores and answers: the discover stage (read-only tools in both modes). */
const ANSWER_STAGE = "discover" as const;

/**
 * Answers one message on the read-only path (Chat mode, or an Agent-mode question): the model explores
 * through the one dispatch with the stage policy's read-only tools, in a bounded loop, then answers in
 * text that streams to the page (`answer-stream.ts`). Stored: each request's `llm-called`, each tool
 * call's `answer-tool-called`, the answer as one `message-posted`, and `run-ended`. No intention,
 * no approval; a write is refused before the dispatch. State lives in the log, so a restarted server
 * simply answers again.
 */
export class AnswerRunner {
  private readonly tools: ToolDispatch;
  private readonly workspace: SessionWorkspace;

  constructor(
    private readonly deps: AnswerRunnerDeps,
    private readonly sessionId: string,
    private readonly runId: string,
  ) {
    this.workspace = runWorkspace(
      deps,
      { sessionId, runId },
      (events) => this.append(events),
      async () => ({ checkpoints: await checkpointsOfSession(deps.checkpointsOf, sessionId) }),
    );
    this.tools = sessionDispatch({
      sandbox: () => this.workspace.box(),
      // Read-only tools never ask, but the gate still gets the project's policy (fail closed).
      policy: async () => ({ checkpoints: await checkpointsOfSession(deps.checkpointsOf, sessionId) }),
      commandTimeoutMs: deps.commandTimeoutMs,
      workspaceMaxBytes: deps.workspaceMaxBytes ?? null,
      logger: deps.logger,
      // The project's Safe MCP tools the request offered pass the same door (no intent: Safe only).
      ...(deps.mcpToolsOf
        ? {
            extraTool: (name: string) =>
              deps.mcpToolsOf?.(sessionId).toolNamed(name) ?? Promise.resolve(null),
          }
        : {}),
    });
  }

  async drive(signal: AbortSignal): Promise<void> {
    const view = await this.readView();
    const run = view.runs[this.runId];
    if (run?.status !== "RUNNING") return;
    this.workspace.stopOn(signal);
    try {
      signal.throwIfAborted();
      const policy = stagePolicy(ANSWER_STAGE, run.mode, run.reasoning);
      const answer = this.deps.model.answerStep
        ? await this.modelAnswer(view, run, policy, signal)
        : await this.offlineAnswer(run, policy, signal);
      // An answer that came is ANSWERED (never VERIFIED: nothing was checked); none is FAILED.
      await this.append([
        {
          type: "message-posted",
          messageId: randomUUID(),
          runId: this.runId,
          role: answer.answered ? "agent" : "system",
          text: answer.text,
        },
        {
          type: "run-ended",
          runId: this.runId,
          status: answer.answered ? "ANSWERED" : "FAILED",
          reason: answer.summary,
        },
      ]);
    } catch (error) {
      await this.fail(error, signal);
    } finally {
      answerStream.finish(this.sessionId, this.runId);
    }
  }

  private async modelAnswer(view: SessionView, run: RunView, policy: StagePolicy, signal: AbortSignal) {
    const step = this.deps.model.answerStep?.bind(this.deps.model);
    if (!step) throw new Error("the model has no answer step");
    const system = composeSystemPrompt(
      policy,
      { project_root: "/workspace", tool_summary: policy.tools.join(", ") },
      this.deps.promptsDir ? { dir: this.deps.promptsDir } : {},
    );
    const offered: AnswerTool[] = policy.tools.map((name) => {
      const definition = toolNamed(name);
      if (!definition) throw new Error(`the tool ${name} is not registered`);
      return { wireName: wireToolName(name), description: definition.description, input: definition.input };
    });
    // Only tools the project marked Safe, and only if it offers the server while looking (mcp-offer.ts).
    // A stdio server starts inside the session's sandbox, so the sandbox must exist first (only then:
    // a project without such a server answers without waiting for a sandbox).
    if (await this.deps.mcpToolsOf?.(this.sessionId).lookingNeedsSandbox()) await this.workspace.box();
    const mcp = await offeredMcpTools(
      this.deps,
      { sessionId: this.sessionId, runId: this.runId, view: () => view },
      { stage: ANSWER_STAGE, mode: run.mode, reasoning: run.reasoning },
      (bodies) => this.append(bodies),
    );
    const mcpNames = mcp.map((tool) => tool.name);
    offered.push(
      ...mcp.map((tool) => ({
        wireName: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
      })),
    );
    const messages: ModelMessage[] = answerHistory(view.messages, this.runId, run.task);
    let callsMade = 0;
    for (let request = 0; request < MAX_ANSWER_REQUESTS; request++) {
      const facts = { runId: this.runId, stage: ANSWER_STAGE, mode: run.mode, reasoning: run.reasoning };
      // The catalogue's tools are checked against the stage policy; the MCP ones were chosen by it.
      checkModelRequest({ ...facts, tools: policy.tools, system });
      const outcome = await step(
        {
          instructions: system,
          messages,
          tools: offered,
          onText: (text) => answerStream.update(this.sessionId, this.runId, text),
        },
        signal,
      );
      // The log keeps at most 40 names per request (the event's bound); the request offered them all.
      const call = { ...outcome.call, tools: [...policy.tools, ...mcpNames].slice(0, 40) };
      await this.append([llmCalledEvent(this.runId, null, call, this.deps.priceOf, run)]);
      if (outcome.calls.length === 0) {
        const text = outcome.text.trim();
        if (!text)
          return {
            answered: false,
            text: "The model ended without writing an answer.",
            summary: `no answer: the model's reply had no text (after ${callsMade} tool call${callsMade === 1 ? "" : "s"})`,
          };
        return {
          answered: true,
          text,
          summary: `answered (${callsMade} tool call${callsMade === 1 ? "" : "s"})`,
        };
      }
      messages.push({
        role: "assistant",
        content: [
          ...(outcome.text ? [{ type: "text" as const, text: outcome.text }] : []),
          ...outcome.calls.map((c) => ({
            type: "tool-call" as const,
            toolCallId: c.id,
            toolName: c.wireName,
            input: c.input,
          })),
        ],
      });
      const results: {
        type: "tool-result";
        toolCallId: string;
        toolName: string;
        output: { type: "text"; value: string };
      }[] = [];
      for (const requested of outcome.calls) {
        const screened = screenToolCall(requested.wireName, policy.tools, callsMade, mcpNames);
        let value: string;
        if (screened.kind === "run") {
          callsMade += 1;
          const result = await this.runTool({ tool: screened.tool, input: requested.input }, signal);
          value = resultText(result) || "(no output)";
        } else {
          value = screened.reason;
          await this.recordTool(screened.tool, requested.input, screened.kind, screened.reason);
        }
        results.push({
          type: "tool-result",
          toolCallId: requested.id,
          toolName: requested.wireName,
          output: { type: "text", value },
        });
      }
      messages.push({ role: "tool", content: results });
      if (callsMade >= MAX_ANSWER_TOOL_CALLS) {
        messages.push({
          role: "user",
          content: `That was the last of the ${MAX_ANSWER_TOOL_CALLS} tool calls for this question: answer now, in text, from what you found.`,
        });
      }
    }
    return {
      answered: false,
      text: `No answer after ${MAX_ANSWER_REQUESTS} model requests: the model kept calling tools. Try a narrower question.`,
      summary: `no answer: the model kept calling tools for all ${MAX_ANSWER_REQUESTS} requests allowed (${callsMade} tool calls made)`,
    };
  }

  private async offlineAnswer(run: RunView, policy: StagePolicy, signal: AbortSignal) {
    const keywords = questionKeywords(run.task);
    const findings: OfflineFinding[] = [];
    const startedAt = performance.now();
    for (const keyword of keywords) {
      const result = await this.runTool(
        { tool: "fs.search", input: { pattern: keyword, ignoreCase: true, maxResults: 200 } },
        signal,
      );
      const failed = result.status === "ok" ? null : (result.error?.message ?? result.status);
      const matches = toolData(result, fsSearchSpec)?.matches ?? [];
      findings.push({ keyword, files: failed ? [] : filesFromSearch(matches), failed });
    }
    if (keywords.length === 0) {
      const result = await this.runTool({ tool: "fs.list", input: {} }, signal);
      const failed = result.status === "ok" ? null : (result.error?.message ?? result.status);
      const entries = toolData(result, fsListSpec)?.entries ?? [];
      findings.push({ keyword: null, files: failed ? [] : entries.map((entry) => entry.path), failed });
    }
    const text = offlineAnswerText(findings);
    // No request leaves the server, but the answer is still one model step: logged like the others.
    const call = {
      stage: ANSWER_STAGE,
      modelId: this.deps.model.id,
      offline: true,
      tokensIn: Math.ceil(run.task.length / 4),
      tokensOut: Math.ceil(text.length / 4),
      latencyMs: performance.now() - startedAt,
      tools: [...policy.tools],
    } as const;
    await this.append([
      llmCalledEvent(this.runId, null, { ...call, tools: [...call.tools] }, this.deps.priceOf, run),
    ]);
    return { answered: true, text, summary: "answered by the offline heuristics (no model configured)" };
  }

  /** One read-only call through the one door, recorded under the answer. */
  private async runTool(call: ToolCall & { tool: string }, signal: AbortSignal): Promise<ToolResult> {
    const result = await this.tools.run(call, { activeIntent: null, signal });
    signal.throwIfAborted();
    const summary = result.status === "ok" ? result.output : resultText(result);
    await this.recordTool(call.tool, result.input ?? call.input, result.status, summary);
    return result;
  }

  private recordTool(
    tool: string,
    input: unknown,
    status: EventOf<"answer-tool-called">["status"],
    summary: string,
  ): Promise<void> {
    return this.append([
      {
        type: "answer-tool-called",
        runId: this.runId,
        callId: randomUUID(),
        tool,
        target: targetOf(input),
        status,
        summary: summarizeResult(summary),
      },
    ]);
  }

  private async fail(error: unknown, signal: AbortSignal): Promise<void> {
    if (signal.aborted) {
      await this.append([
        {
          type: "run-ended",
          runId: this.runId,
          status: "STOPPED",
          reason: `stopped by ${stoppedBy(signal)}`,
        },
      ]);
      return;
    }
    const message = errorMessage(error);
    this.deps.logger.warn({ err: error, runId: this.runId }, "answer failed");
    await this.append([
      {
        type: "message-posted",
        messageId: randomUUID(),
        runId: this.runId,
        role: "system",
        text: `The question could not be answered: ${message}`,
      },
      {
        type: "run-ended",
        runId: this.runId,
        status: "FAILED",
        reason: `the model could not answer: ${message}`,
      },
    ]);
  }

  private readView(): Promise<SessionView> {
    return foldSessionLog(this.deps.log, this.sessionId);
  }

  private async append(bodies: EventInput[]): Promise<void> {
    await this.deps.log.append(this.sessionId, bodies);
  }
}
