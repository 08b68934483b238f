import { describe, expect, it } from "vitest";
import { hostKeyFingerprints, hostKeyRefusalMessage, isHostKeyRefusal } from "./host-keys";

// A throwaway public key and the fingerprint `ssh-keygen -lf` printed for it.
const LINE =
  "[127.0.0.1]:2222 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJTbm/TsjV1QQrIJGld30RfVycqanqOIKDrqYQIEPkDb";
const FINGERPRINT = "ssh-ed25519 SHA256:5XlHylgrOQ3DmbSxNqzY4zW3nMo763bdo5T5UCBpYbs";

describe("pinned SSH host keys", () => {
  it("shows each known_hosts line as ssh-keygen's fingerprint, skipping comments and junk", () => {
    expect(hostKeyFingerprints(`# pinned\n${LINE}\n\nnot a key line\n`)).toEqual([FINGERPRINT]);
    expect(hostKeyFingerprints(null)).toEqual([]);
  });

  it("knows ssh's host-key refusals from other failures, and names the pinned key", () => {
    expect(isHostKeyRefusal("@@@ WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED! @@@")).toBe(true);
    expect(isHostKeyRefusal("Host key verification failed.\nfatal: Could not read from remote")).toBe(true);
    expect(isHostKeyRefusal("git@host: Permission denied (publickey).")).toBe(false);
    expect(hostKeyRefusalMessage(LINE)).toContain(FINGERPRINT);
  });
});
