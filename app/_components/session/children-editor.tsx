"use client";

import { cardCheckCommands } from "@/server/domain/contract/check-commands";
import type { ChildProposal } from "@/server/domain/events/schema";

const MAX_CHILDREN = 5;

/**
 * The proposed children of a decomposition, editable before approving: change what a child does, how
 * it is checked or where it may write (its owned_scope globs, separated by spaces), remove one, or add
 * one (1 to 5 in all). Approving approves each child's scope with its check: writes inside it then
 * need no click while the check is not red.
 */
export function ChildrenEditor({
  proposals,
  onChange,
}: {
  proposals: ChildProposal[];
  onChange: (next: ChildProposal[]) => void;
}) {
  const update = (index: number, patch: Partial<ChildProposal>) =>
    onChange(proposals.map((child, at) => (at === index ? { ...child, ...patch } : child)));
  return (
    <>
      <ol className="proposal" data-testid="proposed-children">
        {proposals.map((child, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; their position is their identity.
          <li key={index} data-testid="proposed-child" className="stack">
            <input
              value={child.what}
              onChange={(event) => update(index, { what: event.target.value })}
              aria-label={`Child ${index + 1}: what`}
              data-testid="child-what"
            />
            <input
              value={child.acceptance}
              onChange={(event) => update(index, { acceptance: event.target.value })}
              aria-label={`Child ${index + 1}: acceptance`}
              placeholder="acceptance, e.g. the command `npm test` exits 0"
              className="small"
              data-testid="child-acceptance"
            />
            <input
              value={child.ownedScope.join(" ")}
              onChange={(event) => update(index, { ownedScope: event.target.value.split(/\s+/) })}
              aria-label={`Child ${index + 1}: owned scope`}
              placeholder="owned scope, e.g. src/auth/** docs/*.md (empty: every write asks)"
              className="small"
              spellCheck={false}
              data-testid="child-scope"
            />
            <ChildChecks acceptance={child.acceptance} />
            {proposals.length > 1 && (
              <button
                type="button"
                className="link small"
                onClick={() => onChange(proposals.filter((_, at) => at !== index))}
                data-testid="child-remove"
              >
                Remove
              </button>
            )}
          </li>
        ))}
      </ol>
      {proposals.length < MAX_CHILDREN && (
        <button
          type="button"
          className="link small"
          onClick={() => onChange([...proposals, { what: "", acceptance: "", ownedScope: [] }])}
          data-testid="child-add"
        >
          + Add a child
        </button>
      )}
    </>
  );
}

/**
 * The exact check commands this child's acceptance names: approving the card approves running them
 * (bound by their hash), so they are shown before anyone approves. None: the child has no check yet
 * (the model may write one; without one it cannot be verified).
 */
function ChildChecks({ acceptance }: { acceptance: string }) {
  const commands = cardCheckCommands(acceptance);
  if (commands.length === 0)
    return (
      <p className="muted small" data-testid="child-checks-none">
        No check named in the acceptance yet: one must be written before this child can be verified.
      </p>
    );
  return (
    <div className="small" data-testid="child-checks">
      These checks will run without asking:
      <ul>
        {commands.map((command) => (
          <li key={command}>
            <code data-testid="child-check-command">{command}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}
