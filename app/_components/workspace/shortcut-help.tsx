"use client";

import { useEffect, useRef } from "react";

const SHORTCUTS: ReadonlyArray<readonly [keys: string, what: string]> = [
  ["A", "Approve the first waiting approval (asks to confirm)"],
  ["R", "Reject it (with a reason)"],
  ["j / k", "Next / previous node in the intention tree (↓ / ↑ inside the tree)"],
  ["Alt+1 … Alt+4", "Changes, Files, Terminal, Replay"],
  ["/", "Type in the task box"],
  ["Ctrl+Enter", "Send the task"],
  ["?", "This list"],
];

/** The workspace's keyboard shortcuts, in a native modal dialog (Escape closes it). */
export function ShortcutHelp({ open, onClose }: { open: boolean; onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      className="shortcut-help"
      aria-label="Keyboard shortcuts"
      onClose={onClose}
      data-testid="shortcut-help"
    >
      <h2>Keyboard shortcuts</h2>
      <dl>
        {SHORTCUTS.map(([keys, what]) => (
          <div key={keys}>
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <form method="dialog">
        <button type="submit" className="primary">
          Close
        </button>
      </form>
    </dialog>
  );
}
