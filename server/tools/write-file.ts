import { errorMessage } from "@/server/domain/errors";
import { relativePath } from "./paths";
import type { ToolOutput, ToolRuntime } from "./types";
import { refuseIfOverCap } from "./workspace-size";

/** fs.write and fs.edit's last step: the size cap, then the sandbox's writeFile. */
export async function writeChecked(
  runtime: ToolRuntime,
  path: string,
  content: string,
): Promise<ToolOutput | null> {
  const refusal = await refuseIfOverCap(runtime, path, Buffer.byteLength(content, "utf8"));
  if (refusal) return refusal;
  try {
    await runtime.sandbox.writeFile(path, content);
    return null;
  } catch (error) {
    return {
      ok: false,
      code: "sandbox_error",
      message: `Could not write ${relativePath(path)}: ${errorMessage(error)}`,
    };
  }
}

export function countLines(content: string): number {
  if (content === "") return 0;
  return content.split("\n").length - (content.endsWith("\n") ? 1 : 0);
}
