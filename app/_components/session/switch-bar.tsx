"use client";

import type { RouterOutputs } from "@/app/_trpc/router-types";
import { USER_MODES } from "@/server/domain/vocabulary/session";
import { DEFAULT_MODEL_CHOICE, type ModeSwitches } from "./mode-switches";

type ModelChoices = RouterOutputs["settings"]["modelChoices"];

const MODE_LABELS = { agent: "Agent", chat: "Chat" } as const;
const MODE_HINTS = {
  agent: "Agent works your message: it plans, runs commands and changes files, asking you where it must.",
  chat: "Chat answers questions about the project with read-only tools; it never changes anything.",
} as const;

/** The person's switches and model picker, next to the task box. Only these clicks change them. */
export function SwitchBar(props: {
  switches: ModeSwitches;
  onChange: (next: Partial<ModeSwitches>) => void;
  /** The configured model choices (settings.modelChoices); undefined while they load. */
  models?: ModelChoices | undefined;
}) {
  const { mode, reasoning, model } = props.switches;
  const listed = props.models?.choices.some((choice) => choice.key === model) ?? false;
  return (
    <div
      className="switch-bar"
      data-testid="switch-bar"
      data-mode={mode}
      data-reasoning={reasoning}
      data-model={model}
    >
      <fieldset aria-label="Mode" className="segmented">
        {USER_MODES.map((option) => (
          <button
            key={option}
            type="button"
            className={mode === option ? "primary" : "secondary"}
            aria-pressed={mode === option}
            title={MODE_HINTS[option]}
            data-testid={`mode-${option}`}
            onClick={() => props.onChange({ mode: option })}
          >
            {MODE_LABELS[option]}
          </button>
        ))}
      </fieldset>
      <label
        className="reasoning-switch"
        title="Ask the model to reason in a short block before it acts or answers"
      >
        <input
          type="checkbox"
          checked={reasoning === "on"}
          onChange={(event) => props.onChange({ reasoning: event.target.checked ? "on" : "off" })}
          data-testid="reasoning-switch"
        />{" "}
        Reasoning
      </label>
      <label className="model-picker" title="The model that answers your next message; only you change it">
        Model{" "}
        <select
          value={model}
          onChange={(event) => props.onChange({ model: event.target.value })}
          data-testid="model-picker"
        >
          <option value={DEFAULT_MODEL_CHOICE}>{props.models?.defaultLabel ?? "default"}</option>
          {props.models?.choices.map((choice) => (
            <option key={choice.key} value={choice.key}>
              {choice.label}
            </option>
          ))}
          {model !== DEFAULT_MODEL_CHOICE && !listed && (
            <option value={model}>{props.models ? `${model} (no longer configured)` : model}</option>
          )}
        </select>
      </label>
      <span className="muted small">{MODE_HINTS[mode]}</span>
    </div>
  );
}
