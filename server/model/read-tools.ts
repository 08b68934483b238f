import { jsonSchema, type ToolSet, tool } from "ai";
import type { ToolName } from "@/server/domain/tools/catalogue";
import { functionNameOf } from "@/server/domain/tools/wire-names";
import { toolManuals } from "@/server/tools/registry";

/** Offered tools with their operating manuals and JSON Schemas, as the reviewer and the warmup read. */
export function readToolSet(offered: readonly ToolName[]): ToolSet {
  const manuals = new Map(toolManuals().map((manual) => [manual.name, manual]));
  const tools: ToolSet = {};
  for (const name of offered) {
    const manual = manuals.get(name);
    if (!manual) continue;
    const schema = { ...(manual.inputSchema as Record<string, unknown>) };
    delete schema.$schema;
    tools[functionNameOf(name)] = tool({
      description: manual.description,
      inputSchema: jsonSchema(schema as Parameters<typeof jsonSchema>[0]),
    });
  }
  return tools;
}
