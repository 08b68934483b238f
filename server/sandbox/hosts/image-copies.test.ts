import { describe, expect, it } from "vitest";
import { copyStep, copyTagOf, splitImageName, supersededCopies } from "./image-copies";

describe("image copies to other Docker hosts", () => {
  it("copies by ID: present only when the host's image of that name is the source's", () => {
    expect(copyStep("sha256:new", "sha256:new", true)).toBe("present");
    expect(copyStep("sha256:new", "sha256:old", false)).toBe("copy");
    expect(copyStep("sha256:new", null, false)).toBe("copy");
    // The host still has that build under another name: a tag, no transfer.
    expect(copyStep("sha256:new", "sha256:old", true)).toBe("tag");
  });

  it("splits names for the tag call, a registry port not being a tag", () => {
    expect(splitImageName("arbor-sandbox:latest")).toEqual({ repo: "arbor-sandbox", tag: "latest" });
    expect(splitImageName("arbor-sandbox")).toEqual({ repo: "arbor-sandbox", tag: "latest" });
    expect(splitImageName("reg:5000/team/img")).toEqual({ repo: "reg:5000/team/img", tag: "latest" });
    expect(splitImageName("reg:5000/img:v2")).toEqual({ repo: "reg:5000/img", tag: "v2" });
    expect(copyTagOf("sha256:abc")).toEqual({ repo: "arbor-copy", tag: "abc" });
  });

  it("removes only Arbor's superseded copies that no container uses", () => {
    const images = [
      { Id: "sha256:current", RepoTags: ["arbor-sandbox:latest", "arbor-copy:current"] },
      { Id: "sha256:old", RepoTags: ["arbor-copy:old"] },
      { Id: "sha256:old-in-use", RepoTags: ["arbor-copy:old-in-use"] },
      { Id: "sha256:operators", RepoTags: ["<none>:<none>"] },
      { Id: "sha256:other", RepoTags: ["postgres:16"] },
      { Id: "sha256:dangling", RepoTags: null },
    ];
    expect(supersededCopies(images, new Set(["sha256:old-in-use"]))).toEqual(["sha256:old"]);
    expect(supersededCopies(images, new Set())).toEqual(["sha256:old", "sha256:old-in-use"]);
  });
});
