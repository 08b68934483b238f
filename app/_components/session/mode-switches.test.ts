import { describe, expect, it } from "vitest";
import { DEFAULT_SWITCHES, parseSwitches, switchesKey } from "./mode-switches";

describe("the mode and reasoning switches as stored in the browser", () => {
  it("reads back what the person chose", () => {
    expect(parseSwitches(JSON.stringify({ mode: "chat", reasoning: "on" }))).toEqual({
      mode: "chat",
      reasoning: "on",
    });
  });

  it("falls back to Agent with reasoning off for nothing, garbage or unknown values", () => {
    expect(parseSwitches(null)).toEqual(DEFAULT_SWITCHES);
    expect(parseSwitches("{not json")).toEqual(DEFAULT_SWITCHES);
    expect(parseSwitches(JSON.stringify({ mode: "auto", reasoning: true }))).toEqual(DEFAULT_SWITCHES);
    expect(parseSwitches(JSON.stringify({ mode: "chat" }))).toEqual({ mode: "chat", reasoning: "off" });
  });

  it("keeps each project's choice apart", () => {
    expect(switchesKey("p1")).not.toBe(switchesKey("p2"));
  });
});
