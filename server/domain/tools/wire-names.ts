import { TOOL_NAMES, type ToolName } from "@/server/domain/vocabulary/stages";

/**
 * Registry names contain dots (`fs.read`), which providers refuse in function names (OpenAI and
 * Anthropic allow `^[a-zA-Z0-9_-]{1,64}$`). This is the one place that maps between the two:
 * `fs.read` ↔ `fs_read`. The registry has no name with an underscore after a dot-free prefix that could
 * collide (checked by the unit test over every tool name).
 */

export function functionNameOf(tool: ToolName): string {
  return tool.replaceAll(".", "_");
}

const BY_FUNCTION_NAME = new Map<string, ToolName>(TOOL_NAMES.map((name) => [functionNameOf(name), name]));

/** The registry tool a function name stands for, or null when it names none. */
export function toolNameOf(functionName: string): ToolName | null {
  return BY_FUNCTION_NAME.get(functionName) ?? null;
}
