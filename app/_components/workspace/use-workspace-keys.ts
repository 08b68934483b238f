"use client";

import { type RefObject, useEffect, useRef } from "react";
import { SIDE_TABS, type SideTab } from "./workspace-tabs";

/** Where a key press is text being typed, the workspace's single-key shortcuts stay out of the way. */
function typingIn(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement && target.closest("input, textarea, select, [contenteditable]") !== null
  );
}

/** The node after (or before) the focused one in the tree, in reading order; the first when none is. */
function stepNode(nodes: readonly HTMLElement[], current: Element | null, step: 1 | -1) {
  if (nodes.length === 0) return null;
  const node = current?.closest<HTMLElement>('[data-testid="intention"]') ?? null;
  const at = node ? nodes.indexOf(node) : -1;
  if (at === -1) return step === 1 ? nodes[0] : nodes[nodes.length - 1];
  return nodes[Math.min(nodes.length - 1, Math.max(0, at + step))] ?? null;
}

/**
 * The workspace's keyboard (A and R for the waiting approval are the approval card's own):
 * Alt+1..4 switch the side tabs, "/" focuses the task box, j/k (or ↓/↑ inside the tree) move through
 * the intention tree's nodes, "?" opens the list of shortcuts.
 */
export function useWorkspaceKeys(options: {
  tree: RefObject<HTMLElement | null>;
  chat: RefObject<HTMLElement | null>;
  onTab(tab: SideTab): void;
  /** The pane a shortcut needs to be visible first (narrow screens show one pane at a time). */
  onShowPane(pane: "chat" | "tree"): void;
  onHelp(): void;
}) {
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const { tree, chat, onTab, onShowPane, onHelp } = latest.current;
      if (event.altKey && !event.ctrlKey && !event.metaKey && /^Digit[1-4]$/.test(event.code)) {
        const tab = SIDE_TABS[Number(event.code.slice(5)) - 1];
        if (tab) {
          event.preventDefault();
          onTab(tab.id);
        }
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
      const inTree = event.target instanceof Node && tree.current?.contains(event.target);
      if (event.key === "/") {
        event.preventDefault();
        onShowPane("chat");
        // After the pane is shown (a narrow screen's tab switch renders first).
        requestAnimationFrame(() =>
          chat.current?.querySelector<HTMLTextAreaElement>('[data-testid="task-input"]')?.focus(),
        );
      } else if (event.key === "?") {
        event.preventDefault();
        onHelp();
      } else if (event.key === "j" || event.key === "k" || (inTree && /^Arrow(Down|Up)$/.test(event.key))) {
        event.preventDefault();
        onShowPane("tree");
        const nodes = [...(tree.current?.querySelectorAll<HTMLElement>('[data-testid="intention"]') ?? [])];
        const next = stepNode(
          nodes,
          document.activeElement,
          event.key === "j" || event.key === "ArrowDown" ? 1 : -1,
        );
        if (!next) return;
        for (const node of nodes) node.removeAttribute("data-selected");
        next.dataset.selected = "true";
        next.tabIndex = -1;
        next.focus({ preventScroll: true });
        next.scrollIntoView({ block: "nearest" });
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
