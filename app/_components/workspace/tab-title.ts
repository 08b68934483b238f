/**
 * The browser tab's title for a session: what waits for the person first, so it shows in a row of
 * tabs — "(2) ⏳ title · Arbor" while approvals wait, "▶ title · Arbor" while the agent works.
 */
export function sessionTabTitle(title: string, waiting: number, running: boolean): string {
  if (waiting > 0) return `(${waiting}) ⏳ ${title} · Arbor`;
  return `${running ? "▶ " : ""}${title} · Arbor`;
}
