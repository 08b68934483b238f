import { describe, expect, it } from "vitest";
import { peerSignatureHeader, verifyPeerSignature } from "./peer";

describe("the terminal relay's request signature", () => {
  const secret = "cluster-shared-nextauth-secret";
  const body = JSON.stringify({ op: "write", sessionId: "s1", data: "ls\r", by: { userId: "u", name: "U" } });
  const now = 1_800_000_000_000;

  it("accepts a request signed with the cluster's secret within 30 s", () => {
    expect(verifyPeerSignature(secret, peerSignatureHeader(secret, body, now), body, now)).toBe(true);
    expect(verifyPeerSignature(secret, peerSignatureHeader(secret, body, now - 30_000), body, now)).toBe(
      true,
    );
  });

  it("refuses another secret, a changed body, an old request and a missing or malformed header", () => {
    expect(verifyPeerSignature(secret, peerSignatureHeader("another-secret", body, now), body, now)).toBe(
      false,
    );
    expect(
      verifyPeerSignature(secret, peerSignatureHeader(secret, body, now), body.replace("ls", "rm"), now),
    ).toBe(false);
    expect(verifyPeerSignature(secret, peerSignatureHeader(secret, body, now - 30_001), body, now)).toBe(
      false,
    );
    expect(verifyPeerSignature(secret, null, body, now)).toBe(false);
    expect(verifyPeerSignature(secret, "t=1,s=zz", body, now)).toBe(false);
  });
});
