import Link from "next/link";
import { describeError } from "../_trpc/client";

export function NotFound({ what, error }: { what: string; error: unknown }) {
  return (
    <section className="card" role="alert" data-testid="not-found">
      <h2>{what} unavailable</h2>
      <p>{describeError(error)}</p>
      <p className="muted small">It may not exist, or it belongs to a team you are not a member of.</p>
      <Link href="/projects">Back to your projects</Link>
    </section>
  );
}
