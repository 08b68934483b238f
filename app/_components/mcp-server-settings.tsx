"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { type McpStageChoice, type McpToolRisk, mcpToolName } from "@/server/domain/tools/mcp";
import { describeError, useTRPC } from "../_trpc/client";

const RISKS: { value: McpToolRisk; label: string }[] = [
  { value: "moderate", label: "Ask (default)" },
  { value: "dangerous", label: "Ask with confirmation" },
  { value: "safe", label: "Safe (no approval)" },
  { value: "off", label: "Off" },
];

const STAGE_LABELS: Record<McpStageChoice, string> = {
  act: "offered while acting",
  looking: "offered while acting and looking",
};

/**
 * The project's MCP tool servers: add one (a program run in each session's sandbox over stdio, or an
 * HTTP URL on the project's allow-list), see its health and tools, set each tool's risk.
 */
export function McpServerSettings({ projectId, canEdit }: { projectId: string; canEdit: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const view = useQuery(trpc.mcp.list.queryOptions({ projectId }));
  const [name, setName] = useState("");
  const [transport, setTransport] = useState<"stdio" | "http">("stdio");
  const [target, setTarget] = useState("");
  const [stages, setStages] = useState<McpStageChoice>("act");
  const [note, setNote] = useState<string | null>(null);
  const done = (result: { note: string }) => {
    setNote(result.note);
    return queryClient.invalidateQueries({ queryKey: trpc.mcp.list.queryKey({ projectId }) });
  };
  const add = useMutation(
    trpc.mcp.add.mutationOptions({
      onSuccess: (result) => {
        setName("");
        setTarget("");
        return done(result);
      },
    }),
  );
  const remove = useMutation(trpc.mcp.remove.mutationOptions({ onSuccess: done }));
  const setRisk = useMutation(trpc.mcp.setToolRisk.mutationOptions({ onSuccess: done }));
  const check = useMutation(trpc.mcp.check.mutationOptions({ onSuccess: done }));
  if (!view.data) return null;
  const error = add.error ?? remove.error ?? setRisk.error ?? check.error;

  const submit = () => {
    const words = target.trim().split(/\s+/).filter(Boolean);
    const config =
      transport === "http"
        ? { transport: "http" as const, url: target.trim() }
        : { transport: "stdio" as const, command: words[0] ?? "", args: words.slice(1) };
    add.mutate({ projectId, name: name.trim(), config, stages });
  };

  return (
    <section className="card" aria-label="MCP tool servers">
      <h2>MCP tool servers</h2>
      <p className="muted">
        Their tools join the agent's tools and pass the same gates: each call asks a person unless you set its
        risk here. A stdio server runs inside each session's sandbox (install it with the setup command); an
        HTTP server is reached by Arbor's server, only at a URL on the allow-list above.
      </p>
      <ul className="stack" data-testid="mcp-servers">
        {view.data.servers.map((server) => (
          <li key={server.name} data-testid={`mcp-server-${server.name}`}>
            <strong>{server.name}</strong>{" "}
            <code>
              {server.config.transport === "http"
                ? server.config.url
                : [server.config.command, ...server.config.args].join(" ")}
            </code>{" "}
            <span className="muted">{STAGE_LABELS[server.stages]}</span>{" "}
            <span data-testid={`mcp-health-${server.name}`}>
              {server.health === null
                ? "Not started yet"
                : server.health.ok
                  ? `Running, ${server.health.tools.length} tools`
                  : `Failed: ${server.health.error ?? "unknown error"}`}
            </span>{" "}
            {server.health && (
              <span className="muted" data-testid={`mcp-seen-${server.name}`}>
                last seen {new Date(server.health.checkedAt).toLocaleString()}
                {server.health.sessionId ? " in a session" : ""}
              </span>
            )}{" "}
            {canEdit && server.config.transport === "http" && (
              <button type="button" onClick={() => check.mutate({ projectId, name: server.name })}>
                Check now
              </button>
            )}{" "}
            {canEdit && (
              <button type="button" onClick={() => remove.mutate({ projectId, name: server.name })}>
                Remove
              </button>
            )}
            {server.health && server.health.tools.length > 0 && (
              <table className="small" data-testid={`mcp-tools-${server.name}`}>
                <tbody>
                  {server.health.tools.map((tool) => (
                    <tr key={tool.name}>
                      <td>
                        <code>{mcpToolName(server.name, tool.name) ?? tool.name}</code>
                      </td>
                      <td className="muted">{tool.description}</td>
                      <td>
                        <select
                          aria-label={`Risk of ${tool.name}`}
                          value={server.toolRisks[tool.name] ?? "moderate"}
                          disabled={!canEdit}
                          onChange={(event) =>
                            setRisk.mutate({
                              projectId,
                              server: server.name,
                              tool: tool.name,
                              risk: event.target.value as McpToolRisk,
                            })
                          }
                        >
                          {RISKS.map((risk) => (
                            <option key={risk.value} value={risk.value}>
                              {risk.label}
                            </option>
                          ))}
                        </select>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </li>
        ))}
      </ul>
      {canEdit && (
        <div className="row">
          <input
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="name"
            aria-label="Server name"
            data-testid="mcp-name"
          />
          <select
            value={transport}
            onChange={(event) => setTransport(event.target.value as "stdio" | "http")}
            aria-label="Transport"
            data-testid="mcp-transport"
          >
            <option value="stdio">stdio (in the sandbox)</option>
            <option value="http">Streamable HTTP</option>
          </select>
          <input
            value={target}
            onChange={(event) => setTarget(event.target.value)}
            placeholder={transport === "http" ? "https://mcp.example.com/mcp" : "node .mcp/server.js stdio"}
            aria-label={transport === "http" ? "URL" : "Command"}
            data-testid="mcp-target"
          />
          {/* Looking stages and Chat offer only the tools marked Safe (server/policy/stages/mcp-offer.ts). */}
          <select
            value={stages}
            onChange={(event) => setStages(event.target.value as McpStageChoice)}
            aria-label="Offered in"
            data-testid="mcp-stages"
          >
            <option value="act">{STAGE_LABELS.act}</option>
            <option value="looking">{`${STAGE_LABELS.looking} (Safe tools only while looking, and in Chat)`}</option>
          </select>
          <button type="button" onClick={submit} disabled={add.isPending} data-testid="mcp-add">
            Add server
          </button>
        </div>
      )}
      {note && <p className="muted">{note}</p>}
      {error && (
        <p className="error" role="alert" data-testid="mcp-error">
          {describeError(error)}
        </p>
      )}
    </section>
  );
}
