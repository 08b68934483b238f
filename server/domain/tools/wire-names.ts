import { TOOL_SPECS, type ToolName, toolNameOfWire } from "@/server/domain/tools/catalogue";

/**
 * Registry names contain dots (`fs.read`), which providers refuse in function names (OpenAI and
 * Anthropic allow `^[a-zA-Z0-9_-]{1,64}$`). Each tool's spec carries its wire name (`fs.read` ↔
 * `fs_read`); these are the model layer's two ways to read it.
 */

export function functionNameOf(tool: ToolName): string {
  return TOOL_SPECS[tool].wireName;
}

/** The registry tool a function name stands for, or null when it names none. */
export function toolNameOf(functionName: string): ToolName | null {
  return toolNameOfWire(functionName);
}
