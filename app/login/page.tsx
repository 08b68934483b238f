import { githubEnabled } from "@/server/auth/options";
import { LoginForm } from "../_components/login-form";

export const dynamic = "force-dynamic";

export default function LoginPage() {
  return (
    <main className="centered">
      <div className="card narrow">
        <h1 className="brand">Arbor</h1>
        <p className="muted">If you can't verify it, decompose it.</p>
        <LoginForm githubEnabled={githubEnabled} />
      </div>
    </main>
  );
}
