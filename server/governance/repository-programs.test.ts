import { describe, expect, it } from "vitest";
import { programKeys } from "./repository-programs";

describe("programKeys", () => {
  it("finds repository settings that name programs, in any case, and only in the repository's scopes", () => {
    const listing = [
      "system\tuser.name",
      "system\tsafe.directory",
      "local\tcore.repositoryformatversion",
      "local\tremote.origin.url",
      "local\tfilter.evil.clean",
      "local\tdiff.pdf.textconv",
      "local\tdiff.external",
      "local\tinclude.path",
      "local\tincludeIf.gitdir:/workspace/.path",
      "worktree\tcore.fsMonitor",
      "local\tmerge.ours.driver",
      "command\tcore.fsmonitor",
      "global\talias.st",
    ].join("\n");
    expect(programKeys(listing)).toEqual([
      "filter.evil.clean",
      "diff.pdf.textconv",
      "diff.external",
      "include.path",
      "includeIf.gitdir:/workspace/.path",
      "core.fsMonitor",
      "merge.ours.driver",
    ]);
  });

  it("finds nothing in a fresh clone's configuration", () => {
    const listing = [
      "local\tcore.repositoryformatversion",
      "local\tcore.filemode",
      "local\tcore.bare",
      "local\tcore.logallrefupdates",
      "local\tremote.origin.url",
      "local\tremote.origin.fetch",
      "local\tbranch.main.remote",
      "local\tbranch.main.merge",
    ].join("\n");
    expect(programKeys(listing)).toEqual([]);
  });
});
