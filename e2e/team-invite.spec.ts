import { expect, test } from "@playwright/test";
import { newUser, signUp } from "../testing/e2e/arbor";

/** Issue #6: teams grow through invitation links made and answered in the browser. */
test("an owner makes a member link on the members page; a new person opens it signed out, creates an account, joins, and the owner makes them a viewer", async ({
  page,
  browser,
}) => {
  const owner = newUser("owner");
  await signUp(page, owner);
  await page.getByTestId("team-members-link").first().click();
  await expect(page.getByTestId("member")).toHaveCount(1);
  await expect(page.getByTestId("member")).toHaveAttribute("data-role", "owner");

  await page.getByTestId("invite-role-choice").selectOption("member");
  await page.getByTestId("create-invite").click();
  const url = await page.getByTestId("invite-link").textContent();
  expect(url).toMatch(/\/invite\/[\w-]+$/);
  await expect(page.getByTestId("open-invite")).toHaveCount(1);

  // Signed out, the link leads to the login page and back to the invitation afterwards.
  const guestContext = await browser.newContext();
  const guest = await guestContext.newPage();
  const newcomer = newUser("newcomer");
  await guest.goto(url ?? "");
  await expect(guest).toHaveURL(/\/login\?next=/);
  await guest.getByTestId("tab-sign-up").click();
  await guest.getByTestId("name").fill(newcomer.name);
  await guest.getByTestId("email").fill(newcomer.email);
  await guest.getByTestId("password").fill(newcomer.password);
  await guest.getByTestId("submit-login").click();
  await expect(guest).toHaveURL(/\/invite\//);
  await expect(guest.getByTestId("invite-role")).toHaveText("member");
  await guest.getByTestId("accept-invite").click();
  await expect(guest).toHaveURL(/\/projects\?team=/);

  // The link is used up: opening it again says so, for someone already in the team.
  await guest.goto(url ?? "");
  await expect(guest.getByTestId("invite-already")).toContainText("member");

  // The owner sees the newcomer and changes their role; the link is no longer open.
  await page.reload();
  const row = page.getByTestId("member").filter({ hasText: newcomer.email });
  await expect(row).toHaveAttribute("data-role", "member");
  await expect(page.getByTestId("open-invite")).toHaveCount(0);
  await row.getByTestId("member-role").selectOption("viewer");
  await expect(row).toHaveAttribute("data-role", "viewer");
  await guestContext.close();
});

test("a crafted login link cannot send a person to another site", async ({ page }) => {
  const person = newUser("careful");
  await page.goto("/login?next=//evil.example/steal");
  await page.getByTestId("tab-sign-up").click();
  await page.getByTestId("name").fill(person.name);
  await page.getByTestId("email").fill(person.email);
  await page.getByTestId("password").fill(person.password);
  await page.getByTestId("submit-login").click();
  await expect(page).toHaveURL(/\/projects$/);
});
