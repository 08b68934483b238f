import { githubEnabled } from "@/server/auth/options";
import { LoginForm } from "../_components/login-form";
import { safeNext } from "../_components/teams/safe-next";

export const dynamic = "force-dynamic";

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string | string[] }>;
}) {
  const { next } = await searchParams;
  return (
    <main className="centered">
      <div className="card narrow">
        <h1 className="brand">Arbor</h1>
        <p className="muted">If you can't verify it, decompose it.</p>
        <LoginForm githubEnabled={githubEnabled} next={safeNext(typeof next === "string" ? next : null)} />
      </div>
    </main>
  );
}
