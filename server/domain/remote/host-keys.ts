import { createHash } from "node:crypto";

/**
 * The SSH host keys pinned for a project's remote (known_hosts lines, learned on first use) as people
 * compare them: `ssh-ed25519 SHA256:…`, the form `ssh-keygen -lf` prints and GitHub publishes.
 */
export function hostKeyFingerprints(knownHosts: string | null): string[] {
  return (knownHosts ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .flatMap((line) => {
      const [, type, blob] = line.split(/\s+/);
      if (!type || !/^(ssh-|ecdsa-|sk-)/.test(type) || !blob || !/^[A-Za-z0-9+/]{20,}=*$/.test(blob))
        return [];
      const digest = createHash("sha256").update(Buffer.from(blob, "base64")).digest("base64");
      return [`${type} SHA256:${digest.replace(/=+$/, "")}`];
    });
}

/** Did ssh refuse the connection over its host key (a changed key, or none known when one must be)? */
export function isHostKeyRefusal(stderr: string): boolean {
  return /Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED|No [A-Z0-9-]+ host key is known/i.test(
    stderr,
  );
}

export function hostKeyRefusalMessage(pinned: string | null): string {
  const fingerprints = hostKeyFingerprints(pinned).join(", ") || "none";
  return `The SSH server's host key is not the one pinned for this remote on first use (${fingerprints}), so nothing was sent: the server may be an impostor. If its key was changed on purpose, an admin enters the remote's deploy key again in the project's settings, and the next connection pins the new key.`;
}
