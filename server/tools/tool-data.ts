import type { z } from "zod";
import type { ToolSpec } from "@/server/domain/tools/spec";
import type { ToolResult } from "./dispatch";

/**
 * A successful result's typed data, checked against the tool's spec: what code reads instead of
 * parsing the text written for the model. Null when the call failed, was another tool's, or carried
 * no data (a tool whose spec declares none, a test double).
 */
export function toolData<Spec extends ToolSpec & { data: z.ZodType }>(
  result: Pick<ToolResult, "tool" | "status" | "data">,
  spec: Spec,
): z.output<Spec["data"]> | null {
  if (result.status !== "ok" || result.tool !== spec.name) return null;
  const parsed = spec.data.safeParse(result.data);
  return parsed.success ? (parsed.data as z.output<Spec["data"]>) : null;
}
