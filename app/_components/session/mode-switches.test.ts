import { describe, expect, it } from "vitest";
import { DEFAULT_SWITCHES, parseSwitches, pickedModel, switchesKey } from "./mode-switches";

describe("the mode and reasoning switches as stored in the browser", () => {
  it("reads back what the person chose", () => {
    expect(parseSwitches(JSON.stringify({ mode: "chat", reasoning: "on", model: "openai:gpt-4o" }))).toEqual({
      mode: "chat",
      reasoning: "on",
      model: "openai:gpt-4o",
    });
  });

  it("falls back to Agent with reasoning off for nothing, garbage or unknown values", () => {
    expect(parseSwitches(null)).toEqual(DEFAULT_SWITCHES);
    expect(parseSwitches("{not json")).toEqual(DEFAULT_SWITCHES);
    expect(parseSwitches(JSON.stringify({ mode: "auto", reasoning: true }))).toEqual(DEFAULT_SWITCHES);
    expect(parseSwitches(JSON.stringify({ mode: "chat" }))).toEqual({
      mode: "chat",
      reasoning: "off",
      model: "default",
    });
    expect(parseSwitches(JSON.stringify({ model: 42 })).model).toBe("default");
  });

  it("turns the picked model into the run's overrides, and never swaps a vanished one for another", () => {
    const choices = [{ key: "offline", label: "offline", model: { offline: true } }];
    expect(pickedModel("default", choices)).toEqual({ model: undefined });
    expect(pickedModel("offline", choices)).toEqual({ model: { offline: true } });
    expect(pickedModel("openai:gone", choices)).toEqual({ unavailable: "openai:gone" });
    expect(pickedModel("offline", undefined)).toEqual({ unavailable: "offline" });
  });

  it("keeps each project's choice apart", () => {
    expect(switchesKey("p1")).not.toBe(switchesKey("p2"));
  });
});
