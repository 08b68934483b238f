import { describe, expect, it } from "vitest";
import { FOLDER_MAX_FILES } from "@/server/domain/events/bodies/editor-files";
import { insideOf, planFolder } from "./folder-contents";

describe("planFolder", () => {
  it("lists the files, and the folders deepest first then the folder itself (the order rmdir needs)", () => {
    const plan = planFolder("docs", [
      { kind: "d", path: "docs/a" },
      { kind: "f", path: "docs/a/x.md" },
      { kind: "d", path: "docs/a/b" },
      { kind: "f", path: "docs/a/b/y.md" },
      { kind: "d", path: "docs/c" },
      { kind: "f", path: "docs/z.md" },
    ]);
    expect(plan.files).toEqual(["docs/a/x.md", "docs/a/b/y.md", "docs/z.md"]);
    expect(plan.dirs).toEqual(["docs/a/b", "docs/c", "docs/a", "docs"]);
    expect(plan.listingHash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("hashes the listing: another file, or the same name as a folder, is another folder", () => {
    const base = planFolder("d", [{ kind: "f", path: "d/x" }]).listingHash;
    expect(planFolder("d", [{ kind: "f", path: "d/x" }]).listingHash).toBe(base);
    expect(planFolder("d", [{ kind: "d", path: "d/x" }]).listingHash).not.toBe(base);
    expect(
      planFolder("d", [
        { kind: "f", path: "d/x" },
        { kind: "f", path: "d/y" },
      ]).listingHash,
    ).not.toBe(base);
  });

  it("refuses a folder holding one fs.list does not enter, and one too large for the Files card", () => {
    expect(() => planFolder("app", [{ kind: "d", path: "app/web/node_modules" }])).toThrow(
      "app holds app/web/node_modules, which the Files card does not open; use the terminal.",
    );
    const many = Array.from({ length: FOLDER_MAX_FILES + 1 }, (_, i) => ({
      kind: "f" as const,
      path: `big/${i}`,
    }));
    expect(() => planFolder("big", many)).toThrow(`big holds more than ${FOLDER_MAX_FILES} files`);
    expect(planFolder("ok", many.slice(1)).files).toHaveLength(FOLDER_MAX_FILES);
  });

  it("an empty folder is just itself", () => {
    expect(planFolder("empty", [])).toMatchObject({ files: [], dirs: ["empty"] });
  });
});

describe("insideOf", () => {
  it("is the path relative to its folder", () => {
    expect(insideOf("docs", "docs/a/b.md")).toBe("a/b.md");
  });
});
