import { describe, expect, it } from "vitest";
import { githubRepositoryOf, providerOf, RemoteUrl, remoteTransport } from "./remote-url";

describe("remote URLs", () => {
  it("knows https and ssh remotes, nothing else", () => {
    expect(remoteTransport("https://github.com/o/r.git")).toBe("https");
    expect(remoteTransport("ssh://git@host:22/o/r.git")).toBe("ssh");
    expect(remoteTransport("git@github.com:o/r.git")).toBe("ssh");
    expect(remoteTransport("file:///srv/r.git")).toBeNull();
    expect(remoteTransport("ext::sh -c evil")).toBeNull();
  });

  it("refuses a password in the URL but takes a user name", () => {
    expect(RemoteUrl.safeParse("https://me:ghp_secret@github.com/o/r.git").success).toBe(false);
    expect(RemoteUrl.safeParse("https://me@github.com/o/r.git").success).toBe(true);
    expect(RemoteUrl.safeParse("-uhttps://x/y").success).toBe(false);
  });

  it("finds GitHub's owner and repository, and GitHub itself", () => {
    expect(githubRepositoryOf("https://github.com/octo/hello.git")).toEqual({ owner: "octo", repo: "hello" });
    expect(githubRepositoryOf("git@github.com:octo/hello.git")).toEqual({ owner: "octo", repo: "hello" });
    expect(githubRepositoryOf("https://ghe.example/scm/octo/hello")).toEqual({
      owner: "octo",
      repo: "hello",
    });
    expect(githubRepositoryOf("https://github.com/hello")).toBeNull();
    expect(providerOf("git@github.com:o/r.git", null)).toBe("github");
    expect(providerOf("https://gitlab.example/o/r.git", null)).toBe("git");
    expect(providerOf("https://ghe.example/o/r.git", "github")).toBe("github");
  });
});
