/**
 * Where to go after signing in: only a path of this site (`/invite/…`), never another origin
 * (`//evil.example`, `https://…`), so a crafted login link cannot send a person elsewhere.
 */
export function safeNext(next: string | null | undefined, fallback = "/projects"): string {
  if (!next?.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return fallback;
  return next;
}
