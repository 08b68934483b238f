import { describe, expect, it } from "vitest";
import { conflictOf, decodeFile, fileHash, newPathProblem, treeEntries } from "./file-content";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("decodeFile", () => {
  it("reads UTF-8 text, keeping a byte-order mark and CRLF line ends", () => {
    expect(decodeFile(bytes("héllo\r\nworld\n"))).toEqual({ ok: true, text: "héllo\r\nworld\n" });
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes("a")]);
    expect(decodeFile(withBom)).toEqual({ ok: true, text: "\uFEFFa" });
    expect(decodeFile(new Uint8Array())).toEqual({ ok: true, text: "" });
  });

  it("refuses binary files: a NUL byte, or bytes that are not UTF-8", () => {
    expect(decodeFile(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]))).toEqual({
      ok: false,
      reason: "it is a binary file (it contains NUL bytes)",
    });
    expect(decodeFile(new Uint8Array([0x61, 0xff, 0xfe, 0x62]))).toEqual({
      ok: false,
      reason: "it is not UTF-8 text",
    });
  });
});

describe("fileHash", () => {
  it("hashes a string as the UTF-8 bytes it is written as", () => {
    expect(fileHash("héllo")).toBe(fileHash(bytes("héllo")));
    expect(fileHash("")).toBe("sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(fileHash("a")).not.toBe(fileHash("a\n"));
  });
});

describe("conflictOf", () => {
  it("lets a save through only when the file is still the one opened", () => {
    expect(conflictOf("a.txt", "sha256:1", "sha256:1")).toBeNull();
    expect(conflictOf("new.txt", null, null)).toBeNull();
  });

  it("names what happened in the sandbox since", () => {
    expect(conflictOf("a.txt", "sha256:1", "sha256:2")).toBe(
      "a.txt changed in the sandbox since you opened it (the agent or someone else wrote it).",
    );
    expect(conflictOf("a.txt", "sha256:1", null)).toBe(
      "a.txt was deleted in the sandbox since you opened it.",
    );
    expect(conflictOf("n.txt", null, "sha256:2")).toBe(
      "n.txt was created in the sandbox after you started it.",
    );
  });
});

describe("treeEntries", () => {
  it("puts folders first, sorts by name, hides .git and notices a cut listing", () => {
    const listing = {
      entries: [
        { kind: "directory", path: ".git" },
        { kind: "file", path: "src/z.ts" },
        { kind: "directory", path: "src/lib" },
        { kind: "file", path: "src/a.ts" },
        { kind: "directory", path: "node_modules" },
      ] as const,
      more: true,
    };
    expect(treeEntries(listing)).toEqual({
      entries: [
        { path: "src/lib", name: "lib", kind: "dir" },
        { path: "node_modules", name: "node_modules", kind: "dir" },
        { path: "src/a.ts", name: "a.ts", kind: "file" },
        { path: "src/z.ts", name: "z.ts", kind: "file" },
      ],
      more: true,
    });
  });

  it("reads an empty folder's note as no entries", () => {
    expect(treeEntries({ entries: [], more: false })).toEqual({ entries: [], more: false });
  });
});

describe("newPathProblem", () => {
  it("accepts plain relative paths, nested ones, dotfiles and absolute paths inside /workspace", () => {
    for (const path of ["notes.md", "src/app/page.tsx", ".env.local", "/workspace/docs/a b.txt", "ünï.txt"])
      expect(newPathProblem(path)).toBeNull();
  });

  it("refuses empty names, folders, . and .., empty segments, control characters and long names", () => {
    expect(newPathProblem("  ")).toBe("Type a file name.");
    expect(newPathProblem(" a.txt")).toContain("spaces");
    expect(newPathProblem("src/")).toContain("folder name");
    expect(newPathProblem("src//a.ts")).toContain("empty folder name");
    expect(newPathProblem("../etc/passwd")).toContain(". or ..");
    expect(newPathProblem("src/./a.ts")).toContain(". or ..");
    expect(newPathProblem("/etc/passwd")).toContain("inside /workspace");
    expect(newPathProblem("a\nb")).toContain("control characters");
    expect(newPathProblem("a\u0000b")).toContain("control characters");
    expect(newPathProblem("a\tb")).toContain("control characters");
    expect(newPathProblem(`${"x".repeat(256)}.txt`)).toContain("255 bytes");
  });
});
