"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { type FormEvent, useState } from "react";
import { describeError, useTRPC } from "../_trpc/client";

type Mode = "sign-in" | "sign-up";

/** `next`: where to go once signed in (an invitation link, say); checked by `safeNext`. */
export function LoginForm({ githubEnabled, next = "/projects" }: { githubEnabled: boolean; next?: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [mode, setMode] = useState<Mode>("sign-in");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const signUp = useMutation(trpc.auth.signUp.mutationOptions());

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "");
    const password = String(form.get("password") ?? "");
    setError(null);
    setBusy(true);
    try {
      if (mode === "sign-up")
        await signUp.mutateAsync({ name: String(form.get("name") ?? ""), email, password });
      const result = await signIn("credentials", { email, password, redirect: false });
      if (!result || result.error) {
        // The server's own words for a rate limit ("Too many sign-in attempts. Try again in N s.").
        setError(result?.error?.startsWith("Too many") ? result.error : "Wrong email or password.");
        return;
      }
      router.push(next);
      router.refresh();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <div className="tabs" role="tablist">
        {(["sign-in", "sign-up"] as const).map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            aria-selected={mode === tab}
            data-testid={`tab-${tab}`}
            className={mode === tab ? "tab active" : "tab"}
            onClick={() => {
              setMode(tab);
              setError(null);
            }}
          >
            {tab === "sign-in" ? "Sign in" : "Create account"}
          </button>
        ))}
      </div>
      <form
        onSubmit={submit}
        className="stack"
        aria-label={mode === "sign-in" ? "Sign in" : "Create account"}
      >
        {mode === "sign-up" && (
          <label>
            Name
            <input name="name" required autoComplete="name" data-testid="name" />
          </label>
        )}
        <label>
          Email
          <input name="email" type="email" required autoComplete="email" data-testid="email" />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            required
            minLength={mode === "sign-up" ? 8 : 1}
            autoComplete={mode === "sign-up" ? "new-password" : "current-password"}
            data-testid="password"
          />
        </label>
        {error && (
          <p role="alert" className="error" data-testid="login-error">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy} data-testid="submit-login">
          {busy ? "Please wait…" : mode === "sign-in" ? "Sign in" : "Create account"}
        </button>
      </form>
      {githubEnabled && (
        <button type="button" className="secondary" onClick={() => signIn("github", { callbackUrl: next })}>
          Continue with GitHub
        </button>
      )}
    </>
  );
}
