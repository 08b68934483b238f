import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { shellQuote } from "@/server/domain/text/shell-quote";
import { buildExecArgv, buildKillArgv, containerNameFor, formatTimeout, resolveContainerPath } from "./shell";
import { SandboxError } from "./types";

describe("shellQuote", () => {
  it("leaves plain words alone", () => {
    expect(shellQuote("src/app.ts")).toBe("src/app.ts");
    expect(shellQuote("--flag=1")).toBe("--flag=1");
  });

  it.each([
    "",
    "two words",
    "it's",
    `"double" and 'single'`,
    "$HOME `id` $(rm -rf /) \\ ; | & > <",
    "line1\nline2",
    "✓ ünïcödé *?[glob]",
    "-n",
  ])("survives a round trip through bash: %j", (word) => {
    // printf %s prints its argument exactly as bash parsed it.
    expect(execFileSync("bash", ["-c", `printf %s ${shellQuote(word)}`], { encoding: "utf8" })).toBe(word);
  });
});

describe("resolveContainerPath", () => {
  it("resolves relative paths against /workspace and normalises", () => {
    expect(resolveContainerPath(".")).toBe("/workspace");
    expect(resolveContainerPath("src/../README.md")).toBe("/workspace/README.md");
    expect(resolveContainerPath("/tmp/x")).toBe("/tmp/x");
  });

  it("refuses NUL bytes", () => {
    expect(() => resolveContainerPath("a\0b")).toThrow(SandboxError);
  });
});

describe("formatTimeout", () => {
  it("formats fractional seconds for coreutils timeout", () => {
    expect(formatTimeout(120_000)).toBe("120s");
    expect(formatTimeout(1_500)).toBe("1.5s");
    expect(formatTimeout(1)).toBe("0.001s");
  });

  it.each([0, -5, Number.NaN, Number.POSITIVE_INFINITY])("refuses %s (0 would mean no limit)", (ms) => {
    expect(() => formatTimeout(ms)).toThrow(/Invalid timeout/);
  });
});

describe("buildExecArgv", () => {
  it("passes the command verbatim as one argument, under timeout, in the directory", () => {
    const argv = buildExecArgv({
      command: `echo "$HOME" 'x'`,
      cwd: "/workspace/src",
      timeoutMs: 2_500,
      tag: "arbor-exec-1",
    });
    expect(argv.slice(0, 2)).toEqual(["bash", "-c"]);
    expect(argv[2]).toContain("exec timeout --kill-after=2s");
    expect(argv.slice(3)).toEqual(["arbor-exec-1", "/workspace/src", "2.5s", `echo "$HOME" 'x'`]);
  });

  it("runs as described when given to a local bash", () => {
    const argv = buildExecArgv({
      command: 'echo "$0:$PWD"; exit 3',
      cwd: "/",
      timeoutMs: 5_000,
      tag: "tag-1",
    });
    const result = (() => {
      try {
        return { out: execFileSync(argv[0] ?? "", argv.slice(1), { encoding: "utf8" }), code: 0 };
      } catch (error) {
        const e = error as { stdout: string; status: number };
        return { out: e.stdout, code: e.status };
      }
    })();
    expect(result).toEqual({ out: "tag-1:/\n", code: 3 });
  });
});

describe("buildKillArgv", () => {
  it("uses a pattern that matches the tag but not itself", () => {
    const argv = buildKillArgv("arbor-exec-abc");
    const pattern = argv.at(-1) ?? "";
    expect(pattern).toBe("[a]rbor-exec-abc");
    expect(new RegExp(pattern).test("bash -c cmd arbor-exec-abc")).toBe(true);
    expect(new RegExp(pattern).test(argv.join(" "))).toBe(false);
  });
});

describe("containerNameFor", () => {
  it("prefixes valid session ids", () => {
    expect(containerNameFor("cm1abc_2.x-y")).toBe("arbor-session-cm1abc_2.x-y");
  });

  it.each(["", "-x", "a b", "a/b", "a;rm", "x".repeat(200)])("refuses %j", (id) => {
    expect(() => containerNameFor(id)).toThrow(/Invalid session id/);
  });
});
