import type { ToolSet } from "ai";
import type { ToolName } from "@/server/domain/tools/catalogue";
import type { RequestContext } from "./request-check";
import type { Interpretation, ToolCallLike } from "./tool-inputs";

export type AskStage = "decompose" | "act" | "discover" | "contract" | "verify" | "delivery_check";

/**
 * One question to the model as `AiSdkModel.ask` sends it: the instructions, the tools it must answer
 * with and how its answer is read. The asks (understanding, roles, delivery) build these.
 */
export interface Ask<T> {
  stage: AskStage;
  /** The workspace tools this request stands for (`run_command` is `shell.exec`; plan tools are answers). */
  workspaceTools: ToolName[];
  /** The run's mode and switch; absent only for callers from before the invariants (tests). */
  request: RequestContext | undefined;
  instructions: string;
  userMessage: string;
  tools: ToolSet;
  interpret(calls: readonly ToolCallLike[], text: string): Interpretation<T>;
}
