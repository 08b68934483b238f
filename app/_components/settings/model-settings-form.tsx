"use client";

import { useState } from "react";
import type { RouterInputs, RouterOutputs } from "@/app/_trpc/router-types";
import {
  COMPATIBLE_PRESETS,
  PROVIDER_IDS,
  PROVIDER_LABELS,
  type ProviderId,
} from "@/server/domain/vocabulary/providers";

type PublicModelSettings = RouterOutputs["settings"]["team"]["settings"];
type ConnectionResult = RouterOutputs["settings"]["testTeamConnection"];
type ModelSettingsInput = RouterInputs["settings"]["updateTeam"]["settings"];

/**
 * The model settings of one team or one project. Empty fields inherit from the layer below. The API
 * key input is write-only: the page only ever shows whether a key is stored and its last 4 characters,
 * and the typed key is dropped from the page as soon as it is saved.
 */
export function ModelSettingsForm(props: {
  scopeLabel: string;
  stored: PublicModelSettings;
  canEdit: boolean;
  saving: boolean;
  testing: boolean;
  error: string | null;
  testResult: ConnectionResult | null;
  onSave(input: ModelSettingsInput): Promise<unknown>;
  onTest(input: ModelSettingsInput): void;
}) {
  const { stored } = props;
  const [provider, setProvider] = useState<ProviderId | "">(stored.provider ?? "");
  const [baseUrl, setBaseUrl] = useState(stored.baseUrl ?? "");
  const [modelName, setModelName] = useState(stored.modelName ?? "");
  const [timeout, setTimeoutText] = useState(stored.timeoutMs ? String(stored.timeoutMs) : "");
  const [apiKey, setApiKey] = useState("");
  const [clearKey, setClearKey] = useState(false);
  const [saved, setSaved] = useState(false);
  const disabled = !props.canEdit;

  const input = (): ModelSettingsInput => ({
    provider: provider === "" ? null : provider,
    baseUrl: baseUrl.trim() === "" ? null : baseUrl.trim(),
    modelName: modelName.trim() === "" ? null : modelName.trim(),
    timeoutMs: timeout.trim() === "" ? null : Number(timeout),
    apiKey:
      apiKey.trim() !== ""
        ? { action: "set", value: apiKey.trim() }
        : clearKey
          ? { action: "clear" }
          : { action: "keep" },
  });

  const save = async () => {
    setSaved(false);
    await props.onSave(input()).then(
      () => {
        // The typed key leaves the page once it is stored.
        setApiKey("");
        setClearKey(false);
        setSaved(true);
      },
      () => undefined,
    );
  };

  return (
    <form
      className="stack"
      aria-label={`${props.scopeLabel} model settings`}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <div className="row">
        <label>
          Provider
          <select
            value={provider}
            disabled={disabled}
            onChange={(event) => setProvider(event.target.value as ProviderId | "")}
            data-testid="settings-provider"
          >
            <option value="">Inherit</option>
            {PROVIDER_IDS.map((id) => (
              <option key={id} value={id}>
                {PROVIDER_LABELS[id]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Model
          <input
            value={modelName}
            disabled={disabled}
            placeholder="inherit, e.g. gpt-4o-mini"
            onChange={(event) => setModelName(event.target.value)}
            data-testid="settings-model"
          />
        </label>
        <label>
          Timeout (ms)
          <input
            value={timeout}
            disabled={disabled}
            inputMode="numeric"
            placeholder="inherit"
            onChange={(event) => setTimeoutText(event.target.value.replace(/[^0-9]/g, ""))}
            data-testid="settings-timeout"
          />
        </label>
      </div>
      <label>
        Base URL
        <input
          value={baseUrl}
          disabled={disabled}
          placeholder="inherit; OpenAI and Anthropic default to their public APIs"
          onChange={(event) => setBaseUrl(event.target.value)}
          data-testid="settings-base-url"
        />
      </label>
      {provider === "openai-compatible" && !disabled && (
        <div className="row small">
          <span className="muted">Presets:</span>
          {COMPATIBLE_PRESETS.map((preset) => (
            <button
              key={preset.id}
              type="button"
              className="link"
              onClick={() => setBaseUrl(preset.baseUrl)}
              data-testid={`preset-${preset.id}`}
            >
              {preset.label}
            </button>
          ))}
        </div>
      )}
      <label>
        API key{" "}
        <span className="muted small" data-testid="settings-key-status">
          {stored.apiKey.set
            ? `set${stored.apiKey.hint ? ` (ends in ${stored.apiKey.hint})` : ""}`
            : "not set"}
        </span>
        <input
          type="password"
          autoComplete="off"
          value={apiKey}
          disabled={disabled}
          placeholder={stored.apiKey.set ? "type a new key to replace it" : "inherit, or type a key"}
          onChange={(event) => setApiKey(event.target.value)}
          data-testid="settings-api-key"
        />
      </label>
      {stored.apiKey.set && !disabled && (
        <label className="inline small">
          <input type="checkbox" checked={clearKey} onChange={(event) => setClearKey(event.target.checked)} />
          Remove the stored key
        </label>
      )}
      {props.canEdit ? (
        <div className="row">
          <button type="submit" className="primary" disabled={props.saving} data-testid="settings-save">
            {props.saving ? "Saving…" : "Save"}
          </button>
          <button
            type="button"
            className="secondary"
            disabled={props.testing}
            onClick={() => props.onTest(input())}
            data-testid="settings-test"
          >
            {props.testing ? "Testing…" : "Test connection"}
          </button>
          {saved && !props.saving && (
            <span className="muted small" data-testid="settings-saved">
              Saved: new runs use it.
            </span>
          )}
        </div>
      ) : (
        <p className="muted small">Only editors can change these settings.</p>
      )}
      {props.testResult && <ConnectionOutcome result={props.testResult} />}
      {props.error && (
        <p role="alert" className="error" data-testid="settings-error">
          {props.error}
        </p>
      )}
    </form>
  );
}

function ConnectionOutcome({ result }: { result: ConnectionResult }) {
  if (result.ok)
    return (
      <p className="small" data-testid="settings-test-result" data-ok="true">
        <span className="badge ok">Connected</span> {result.model} at {result.server} answered in{" "}
        {result.latencyMs} ms.
      </p>
    );
  return (
    <p role="alert" className="error small" data-testid="settings-test-result" data-ok="false">
      Connection failed: {result.message}
    </p>
  );
}
