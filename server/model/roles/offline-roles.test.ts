import { describe, expect, it } from "vitest";
import { critiqueOffline, rankFilesOffline } from "./offline-roles";

describe("full mode's roles offline", () => {
  it("the Librarian ranks paths by the intention's words, a file's own name first", () => {
    const ranking = rankFilesOffline({
      what: "fix the greeting in greet.ts",
      acceptance: "greet tests pass",
      files: ["README.md", "src/greet.ts", "greet/index.ts", "test/greet.test.ts", "src/other.ts"],
    });
    expect(ranking.files.map((file) => file.path)).toEqual([
      "src/greet.ts",
      "test/greet.test.ts",
      "greet/index.ts",
    ]);
    expect(ranking.files[0]?.why).toContain("greet");
  });

  it("the Librarian ranks nothing when no path matches", () => {
    const ranking = rankFilesOffline({ what: "add a changelog", acceptance: "", files: ["src/a.ts"] });
    expect(ranking.files).toEqual([]);
    expect(ranking.summary).toContain("no file");
  });

  it("the Critic only sends back a change that cannot be right", () => {
    expect(critiqueOffline({ action: "fs.write a.ts", change: "" }).verdict).toBe("revise");
    expect(critiqueOffline({ action: "fs.edit a.ts", change: "no change" }).verdict).toBe("revise");
    expect(critiqueOffline({ action: "fs.write a.ts", change: "+x" }).verdict).toBe("approve");
    expect(critiqueOffline({ action: "fs.delete a.ts", change: "delete a.ts" }).verdict).toBe("approve");
  });
});
