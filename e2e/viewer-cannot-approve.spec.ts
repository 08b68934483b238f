import { expect, test } from "@playwright/test";
import {
  approvalCard,
  createProject,
  expectRunStatus,
  newUser,
  signUp,
  startTask,
} from "../testing/e2e/arbor";
import { callTrpc } from "../testing/e2e/trpc";

/** Issue #6: a viewer watches a live session and its waiting card, but never answers it. */
test("a viewer invited by link sees the waiting card without answer controls and is refused by the API; the owner approves", async ({
  page,
  browser,
}) => {
  const owner = newUser("owner");
  await signUp(page, owner);
  await createProject(page, "Watched project");
  const sessionUrl = await startTask(page, "create `watched.txt` containing `hello`");
  const ownerCard = approvalCard(page, "tool");
  await expect(ownerCard.getByTestId("approve")).toBeVisible();

  // The owner makes a viewer invite link for their team; the viewer signs up and follows it.
  const teams = await callTrpc(page, "team.list", undefined, "query");
  const teamId = (teams.data as { id: string; role: string }[]).find((team) => team.role === "owner")?.id;
  expect(teamId).toBeTruthy();
  const invite = await callTrpc(page, "team.createInvite", { teamId, role: "viewer" }, "mutation");
  expect(invite.error).toBeNull();
  const token = (invite.data as { token: string }).token;

  const viewerContext = await browser.newContext();
  const viewerPage = await viewerContext.newPage();
  await signUp(viewerPage, newUser("viewer"));
  const accepted = await callTrpc(viewerPage, "team.acceptInvite", { token }, "mutation");
  expect(accepted.error).toBeNull();

  // The viewer watches the live session: the card is there, its answer controls are not.
  await viewerPage.goto(sessionUrl);
  const viewerCard = approvalCard(viewerPage, "tool");
  await expect(viewerCard.getByRole("heading")).toHaveText("Write this file?");
  await expect(viewerCard.getByTestId("tool-path")).toHaveText("watched.txt");
  await expect(viewerCard.getByTestId("approval-viewer-note")).toHaveText(
    "You are watching as a viewer: only members, admins and owners of this team can answer.",
  );
  await expect(viewerCard.getByRole("button")).toHaveCount(0);
  await expect(viewerCard.getByTestId("preapprove-run")).toHaveCount(0);
  await expect(viewerPage.getByTestId("run-preapprove-menu")).toHaveCount(0);
  await expect(page.getByTestId("run-preapprove-menu")).toBeVisible();
  // The keyboard shortcut does nothing for them either.
  await viewerCard.getByRole("heading").click();
  await viewerPage.keyboard.press("a");

  // A direct call as the viewer is refused, and the approval still waits.
  const approvalId = await viewerCard.getAttribute("data-approval-id");
  const sessionId = new URL(sessionUrl).pathname.split("/").at(-1);
  const refused = await callTrpc(
    viewerPage,
    "approval.decide",
    { sessionId, approvalId, decision: "approved" },
    "mutation",
  );
  expect(refused.status).toBe(403);
  expect(refused.error?.code).toBe("FORBIDDEN");
  await expect(viewerCard).toBeVisible();
  await expect(ownerCard.getByTestId("approve")).toBeEnabled();

  // The owner approves; both pages see the run go on to its end.
  await ownerCard.getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");
  await expectRunStatus(viewerPage, "VERIFIED");
  await expect(approvalCard(viewerPage, "tool")).toHaveCount(0);
  await viewerContext.close();
});
