import { describe, expect, it } from "vitest";
import { copiedNames, imagesToRemove, type UpkeepFacts, type UpkeepImage } from "./image-upkeep";

const NOW = Date.parse("2026-11-28T12:00:00Z");
const old = NOW / 1000 - 3600;
const image = (
  Id: string,
  RepoTags: string[] | null,
  Labels: Record<string, string> = {},
  Created = old,
) => ({
  Id,
  RepoTags,
  Labels,
  Created,
});

/** The images of one remote host: copies of the sandbox image, a project's builds, the operator's own. */
const images: UpkeepImage[] = [
  image("sha256:v3", ["arbor-sandbox:latest", "arbor-copy:v3"]),
  image("sha256:v2", ["arbor-copy:v2"]),
  image("sha256:v1-stale", ["arbor-egress:latest", "arbor-copy:v1-stale"]),
  image("sha256:p-new", ["arbor-project-p:new", "arbor-copy:p-new"], { "arbor.project": "p" }),
  image("sha256:p-old", ["arbor-project-p:old", "arbor-copy:p-old"], { "arbor.project": "p" }),
  image("sha256:p-fresh", ["arbor-project-p:fresh"], { "arbor.project": "p" }, NOW / 1000 - 60),
  image("sha256:q-old", ["arbor-project-q:old"], { "arbor.project": "q" }),
  image("sha256:gone-project", ["arbor-project-z:old"], { "arbor.project": "z" }),
  image("sha256:operators", ["postgres:16"]),
  image("sha256:operators-named-like-ours", ["arbor-sandbox:old"]),
  image("sha256:dangling", null),
  // sandbox-image/build.sh's builds: the current one by name, an older one left unnamed, one just made.
  image("sha256:sandbox-now", ["arbor-sandbox:latest"], { "arbor.sandbox.hash": "b" }),
  image("sha256:sandbox-before", null, { "arbor.sandbox.hash": "a" }),
  image("sha256:sandbox-naming", ["<none>:<none>"], { "arbor.sandbox.hash": "c" }, NOW / 1000 - 60),
  image("sha256:none", ["<none>:<none>"]),
];

const facts = (overrides: Partial<UpkeepFacts> = {}): UpkeepFacts => ({
  images,
  usedImageIds: new Set(),
  sourceIds: new Map([
    ["arbor-sandbox:latest", "sha256:v3"],
    ["arbor-egress:latest", "sha256:egress-rebuilt"],
    ["arbor-project-p:new", "sha256:p-new"],
    ["arbor-project-p:old", null],
  ]),
  // p runs its `new` build; q went back to the server's image; z is not this database's.
  currentProjectImages: new Map([
    ["p", "arbor-project-p:new"],
    ["q", null],
  ]),
  nowMs: NOW,
  minProjectImageAgeMs: 10 * 60_000,
  ...overrides,
});

const ids = (f: UpkeepFacts) => imagesToRemove(f).map((entry) => `${entry.id} ${entry.reason}`);

describe("image upkeep on a Docker host", () => {
  it("removes superseded and stale copies and old project images, keeps the current and the operator's", () => {
    expect(ids(facts())).toEqual([
      "sha256:v2 superseded-copy",
      "sha256:v1-stale stale-copy",
      "sha256:p-old old-project-image",
      "sha256:q-old old-project-image",
      "sha256:sandbox-before superseded-sandbox-image",
    ]);
  });

  it("keeps whatever a container (running, stopped or warm) was made from", () => {
    const used = new Set([
      "sha256:v2",
      "sha256:v1-stale",
      "sha256:p-old",
      "sha256:q-old",
      "sha256:sandbox-before",
    ]);
    expect(ids(facts({ usedImageIds: used }))).toEqual([]);
  });

  it("keeps a copy whose name the source does not answer for, or still points to", () => {
    const sourceIds = new Map([["arbor-egress:latest", "sha256:v1-stale"]]);
    expect(ids(facts({ sourceIds }))).not.toContain("sha256:v1-stale stale-copy");
    // On the source engine itself (no source IDs) only names moved on and old project builds go.
    expect(ids(facts({ sourceIds: new Map() }))).toEqual([
      "sha256:v2 superseded-copy",
      "sha256:p-old old-project-image",
      "sha256:q-old old-project-image",
      "sha256:sandbox-before superseded-sandbox-image",
    ]);
  });

  it("keeps a project build younger than the grace period: it may not be recorded yet", () => {
    expect(ids(facts({ minProjectImageAgeMs: 30_000 }))).toContain("sha256:p-fresh old-project-image");
    expect(ids(facts({ minProjectImageAgeMs: 60_001 }))).not.toContain("sha256:p-fresh old-project-image");
    expect(ids(facts({ minProjectImageAgeMs: 60_000 }))).toContain("sha256:p-fresh old-project-image");
    // The same for a sandbox image the builder has not named yet.
    expect(ids(facts({ minProjectImageAgeMs: 60_001 }))).not.toContain(
      "sha256:sandbox-naming superseded-sandbox-image",
    );
    expect(ids(facts({ minProjectImageAgeMs: 60_000 }))).toContain(
      "sha256:sandbox-naming superseded-sandbox-image",
    );
  });

  it("lists the names copies carry, for the source lookups", () => {
    expect(copiedNames(images).sort()).toEqual([
      "arbor-egress:latest",
      "arbor-project-p:new",
      "arbor-project-p:old",
      "arbor-sandbox:latest",
    ]);
  });
});
