import { stat } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { withoutSecrets, withRemoteAuth } from "./remote-access";

const KEY =
  "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----";

describe("a remote's credential reaches only the server's git process", () => {
  it("a deploy key is a 0600 file for the call and gone after it, even when the call fails", async () => {
    let keyFile = "";
    await expect(
      withRemoteAuth({ kind: "ssh-key", privateKey: KEY }, async ({ env }) => {
        keyFile = /-i '([^']+)'/.exec(env.GIT_SSH_COMMAND ?? "")?.[1] ?? "";
        expect(env.GIT_SSH_COMMAND).toContain("-o BatchMode=yes");
        expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
        throw new Error("the push failed");
      }),
    ).rejects.toThrow("the push failed");
    expect(keyFile).not.toBe("");
    await expect(stat(keyFile)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("a token is an extra header in the environment (not the command line), with redirects off", async () => {
    const env = await withRemoteAuth(
      { kind: "token", username: "u", token: "ghp_abcdef123456" },
      async (auth) => {
        expect(withoutSecrets("sent ghp_abcdef123456 and back", auth.secrets)).toBe("sent ••• and back");
        return auth.env;
      },
    );
    expect(env).toEqual({
      GIT_CONFIG_COUNT: "2",
      GIT_CONFIG_KEY_0: "http.extraHeader",
      GIT_CONFIG_VALUE_0: `Authorization: Basic ${Buffer.from("u:ghp_abcdef123456").toString("base64")}`,
      GIT_CONFIG_KEY_1: "http.followRedirects",
      GIT_CONFIG_VALUE_1: "false",
    });
  });
});
