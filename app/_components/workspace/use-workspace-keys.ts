"use client";

import { type RefObject, useEffect, useRef } from "react";
import { SIDE_TABS, type SideTab } from "./workspace-tabs";

/** Where a key press is text being typed, the workspace's single-key shortcuts stay out of the way. */
function typingIn(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement && target.closest("input, textarea, select, [contenteditable]") !== null
  );
}

const NODE = '[data-testid="intention"]';

/** The node after (or before) the current one in the tree, in reading order; the first when none is. */
function stepNode(nodes: readonly HTMLElement[], current: HTMLElement | null, step: 1 | -1) {
  if (nodes.length === 0) return null;
  const at = current ? nodes.indexOf(current) : -1;
  if (at === -1) return step === 1 ? nodes[0] : nodes[nodes.length - 1];
  return nodes[Math.min(nodes.length - 1, Math.max(0, at + step))] ?? null;
}

/** The node being worked with: the focused one, else the one last selected. */
function currentNode(tree: HTMLElement | null): HTMLElement | null {
  const focused = document.activeElement?.closest<HTMLElement>(NODE) ?? null;
  if (focused && tree?.contains(focused)) return focused;
  return tree?.querySelector<HTMLElement>(`${NODE}[data-selected="true"]`) ?? null;
}

/**
 * Marks one node as the selected one (highlighted, `aria-current`), opens its latest cycle so its
 * command, output, checks and judgment are in sight, and brings its head into view. The attributes
 * are set here, not by React: the tree re-renders on every event and never sets them itself.
 */
function selectNode(tree: HTMLElement, node: HTMLElement, how: { focus: boolean; openCycle: boolean }) {
  for (const other of tree.querySelectorAll<HTMLElement>(`${NODE}[data-selected="true"]`)) {
    other.removeAttribute("data-selected");
    other.removeAttribute("aria-current");
  }
  node.dataset.selected = "true";
  node.setAttribute("aria-current", "true");
  const cycles = node.querySelectorAll<HTMLDetailsElement>(":scope > .cycles > details");
  const latest = cycles[cycles.length - 1];
  if (latest && how.openCycle) latest.open = true;
  if (how.focus) {
    node.tabIndex = -1;
    node.focus({ preventScroll: true });
  }
  (node.querySelector(":scope > .node-head") ?? node).scrollIntoView({ block: "nearest" });
}

/**
 * The workspace's keyboard (A and R for the waiting approval are the approval card's own):
 * Alt+1..4 switch the side tabs, "/" focuses the task box, j/k (or ↓/↑ inside the tree) move through
 * the intention tree's nodes (a click selects one too), "?" opens the list of shortcuts.
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
        const root = tree.current;
        if (!root) return;
        const nodes = [...root.querySelectorAll<HTMLElement>(NODE)];
        const next = stepNode(
          nodes,
          currentNode(root),
          event.key === "j" || event.key === "ArrowDown" ? 1 : -1,
        );
        if (next) selectNode(root, next, { focus: true, openCycle: true });
      }
    };
    // A click in a node selects it too; the focus stays where the click put it (a button, a field).
    const onClick = (event: MouseEvent) => {
      const root = latest.current.tree.current;
      const node = event.target instanceof Element ? event.target.closest<HTMLElement>(NODE) : null;
      if (!root || !node || !root.contains(node) || node.dataset.selected === "true") return;
      // A click on a summary toggles that details itself (after this handler): opening it here would undo it.
      const onSummary = event.target instanceof Element && event.target.closest("summary") !== null;
      selectNode(root, node, { focus: false, openCycle: !onSummary });
    };
    window.addEventListener("keydown", onKey);
    document.addEventListener("click", onClick);
    return () => {
      window.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onClick);
    };
  }, []);
}
