import { statSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createProject, newUser, signIn, signUp } from "../testing/e2e/arbor";
import { SPARE_APP_PORT } from "../testing/e2e/ports";
import { type ArborServer, startArborServer } from "../testing/e2e/server";

/**
 * Issue #16 against a real `next start`: sign-in limits shown on the login page, body caps before
 * authentication, and a data directory only the server's user can read.
 */
const DATA_DIR = ".e2e/security";
let server: ArborServer | null = null;
test.use({ baseURL: `http://localhost:${SPARE_APP_PORT}` });
test.beforeAll(async () => {
  server = await startArborServer({
    port: SPARE_APP_PORT,
    dataDir: DATA_DIR,
    modelUrl: "",
    env: { ARBOR_SIGN_IN_ACCOUNT_LIMIT: "2", ARBOR_SIGN_IN_WINDOW_SECONDS: "120" },
  });
});
test.afterAll(async () => {
  await server?.stop();
  server = null;
});

test("the login page says 'too many attempts, try again in N s' at the limit + 1", async ({ page }) => {
  const user = newUser("limited");
  await signUp(page, user);
  await page.context().clearCookies();
  for (let tries = 0; tries < 2; tries++) {
    await signIn(page, { email: user.email, password: "wrong password" });
    await expect(page.getByTestId("login-error")).toHaveText("Wrong email or password.");
  }
  await signIn(page, user);
  await expect(page.getByTestId("login-error")).toHaveText(
    /^Too many sign-in attempts\. Try again in \d+ s\.$/,
  );
  await expect(page).toHaveURL(/\/login/);
});

test("the sign-in endpoint answers 429 with Retry-After once an account is over its limit", async ({
  request,
}) => {
  const email = newUser("api").email;
  const csrf = async () =>
    ((await (await request.get("/api/auth/csrf")).json()) as { csrfToken: string }).csrfToken;
  const attempt = async () =>
    request.post("/api/auth/callback/credentials", {
      form: { email, password: "wrong", csrfToken: await csrf(), json: "true" },
      maxRedirects: 0,
    });
  expect((await attempt()).status()).toBe(401);
  expect((await attempt()).status()).toBe(401);
  const limited = await attempt();
  expect(limited.status()).toBe(429);
  expect(Number(limited.headers()["retry-after"])).toBeGreaterThan(0);
});

test("an unauthenticated body over the cap gets 413 before it is parsed", async ({ request }) => {
  const cap = 64 * 1024;
  const body = (size: number) => {
    const prefix = '{"0":{"json":{"email":"big@example.com","password":"long enough","name":"';
    const suffix = '"}}}';
    return prefix + "x".repeat(size - prefix.length - suffix.length) + suffix;
  };
  const send = (size: number) =>
    request.post("/api/trpc/auth.signUp?batch=1", {
      data: body(size),
      headers: { "content-type": "application/json" },
    });
  const over = await send(cap + 1);
  expect(over.status()).toBe(413);
  expect(await over.text()).toContain("larger than 64 KB");
  expect((await send(cap)).status()).toBe(400);
  const form = await request.post("/api/auth/callback/credentials", {
    data: `password=${"x".repeat(cap)}`,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    maxRedirects: 0,
  });
  expect(form.status()).toBe(413);
});

test("the database, its WAL and the repositories are readable by the server's user alone", async ({
  page,
}) => {
  await signUp(page, newUser("modes"));
  await createProject(page, "Private files");
  const mode = (file: string) => statSync(path.join(DATA_DIR, file)).mode & 0o777;
  expect(mode(".")).toBe(0o700);
  expect(mode("arbor.db")).toBe(0o600);
  expect(mode("arbor.db-wal")).toBe(0o600);
  expect(mode("repos")).toBe(0o700);
});
