/**
 * The workspace's tabs. On a wide screen the side pane holds the first four; on a narrow one every
 * pane is a tab of its own. Alt+1..4 switch the side tabs, in this order, everywhere.
 */
export const SIDE_TABS = [
  { id: "changes", label: "Changes" },
  { id: "files", label: "Files" },
  { id: "terminal", label: "Terminal" },
  { id: "replay", label: "Replay" },
] as const;

export const NARROW_ONLY_TABS = [
  { id: "chat", label: "Chat" },
  { id: "tree", label: "Intentions" },
] as const;

export type SideTab = (typeof SIDE_TABS)[number]["id"];
export type WorkspaceTab = SideTab | (typeof NARROW_ONLY_TABS)[number]["id"];

export function isSideTab(tab: WorkspaceTab): tab is SideTab {
  return SIDE_TABS.some((side) => side.id === tab);
}
