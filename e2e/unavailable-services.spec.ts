import { expect, test } from "@playwright/test";
import { child, createProject, expectRunStatus, newUser, signUp, startTask } from "../testing/e2e/arbor";
import { FAKE_MODEL_PORT, SPARE_APP_PORT } from "../testing/e2e/ports";
import { type ArborServer, startArborServer } from "../testing/e2e/server";

let server: ArborServer | null = null;
test.use({ baseURL: `http://localhost:${SPARE_APP_PORT}` });
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

test("with the Docker engine unreachable, the UI says so and the run fails with that reason", async ({
  page,
}) => {
  server = await startArborServer({
    port: SPARE_APP_PORT,
    dataDir: ".e2e/no-docker",
    modelUrl: `http://127.0.0.1:${FAKE_MODEL_PORT}/v1`,
    env: { DOCKER_HOST: "unix:///tmp/arbor-no-such-docker.sock" },
  });
  await signUp(page, newUser("nodocker"));
  await expect(page.getByTestId("docker-status")).toContainText("Docker");
  await createProject(page, "No docker");
  await startTask(page, "run `echo one` and then run `echo two`");
  await page.getByTestId("approve").click();
  await expectRunStatus(page, "FAILED");
  await expect(child(page, 0).getByTestId("intention-reason")).toContainText("Docker");
  await expect(page.getByTestId("run-reason")).toContainText("failed");
});

test("with the model server down, the run fails with a clear reason and the data stays", async ({ page }) => {
  server = await startArborServer({
    port: SPARE_APP_PORT,
    dataDir: ".e2e/no-model",
    modelUrl: "http://127.0.0.1:4999/v1",
  });
  await signUp(page, newUser("nomodel"));
  await createProject(page, "No model");
  await startTask(page, "run `echo one` and then run `echo two`");
  await expectRunStatus(page, "FAILED");
  await expect(page.getByTestId("run-reason")).toContainText("not reachable");
  await expect(page.getByTestId("message-user")).toContainText("run `echo one`");
  await page.reload();
  await expectRunStatus(page, "FAILED");
});
