/**
 * Runs once when the server starts: validate the environment, prepare SQLite, remove sandbox
 * containers whose session is gone, and continue every run that was interrupted.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServer } = await import("@/server/startup");
  await startServer();
}
