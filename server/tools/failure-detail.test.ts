import { describe, expect, it } from "vitest";
import { failureDetail } from "./sandbox-calls";
import { setupFailureHint } from "./setup-run";

describe("failureDetail", () => {
  it("names the error of a Node crash, not Node's closing version banner", () => {
    const stderr = [
      "/opt/node/lib/node_modules/corepack/dist/lib/corepack.cjs:22059",
      "  if (!Array.isArray(signatures) || !signatures.length) throw new Error(`No compatible…`);",
      "",
      "Error: No compatible signature found in package metadata",
      "    at verifySignature (/opt/node/lib/node_modules/corepack/dist/lib/corepack.cjs:22059:63)",
      "    at installVersion (/opt/node/lib/node_modules/corepack/dist/lib/corepack.cjs:22474:7)",
      "",
      "Node.js v24.21.0",
      "",
    ].join("\n");
    expect(failureDetail(stderr)).toBe("Error: No compatible signature found in package metadata");
  });

  it("keeps the last line when no line names an error", () => {
    expect(failureDetail("compiling\nsomething went sideways\n")).toBe("something went sideways");
  });

  it("prefers the last line that names one", () => {
    expect(failureDetail("npm ERR! code E404\nnpm ERR! 404 Not Found - GET x\nsee the log\n")).toBe(
      "npm ERR! 404 Not Found - GET x",
    );
  });

  it("has nothing to say for empty stderr, and caps a long line", () => {
    expect(failureDetail("\n  \n")).toBeUndefined();
    expect(failureDetail(`Error: ${"x".repeat(400)}`)).toHaveLength(300);
  });
});

describe("setupFailureHint", () => {
  it("explains corepack's refusal of unsigned registry metadata, and only that", () => {
    expect(setupFailureHint("Error: No compatible signature found in package metadata")).toContain(
      "COREPACK_INTEGRITY_KEYS",
    );
    expect(setupFailureHint("Internal Error: Cannot find matching keyid: {…}")).toContain("signatures");
    expect(setupFailureHint("npm ERR! 404 Not Found")).toBeNull();
  });
});
