"use client";

import { childCheckPlan } from "@/server/domain/contract/child-checks";
import type { ChildProposal } from "@/server/domain/events/schema";
import type { DiscoveredIntent } from "@/server/domain/intent/discovered-intent";

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
  discovered = null,
}: {
  proposals: ChildProposal[];
  onChange: (next: ChildProposal[]) => void;
  /** What discovery found (the project's detected tests, the request's targets): the fallback check. */
  discovered?: Pick<DiscoveredIntent, "codebase" | "prompt"> | null;
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
            <ChildChecks child={child} discovered={discovered} />
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
 * The exact check commands that will run for this child (child-checks.ts, the same plan the server
 * binds): what its acceptance names (or its own command), and the project's detected tests as the
 * fallback. Approving the card approves running them, bound by their hash, so they are shown first.
 */
function ChildChecks({
  child,
  discovered,
}: {
  child: ChildProposal;
  discovered: Pick<DiscoveredIntent, "codebase" | "prompt"> | null;
}) {
  const plan = childCheckPlan(child, discovered?.codebase, discovered?.prompt.targets ?? []);
  const fallback = plan.detected ? (
    <div data-testid="child-check-fallback">
      {plan.named.length > 0
        ? "If these are already green before any work, the project's tests run too:"
        : "The project's tests:"}
      <ul>
        <li>
          <code data-testid="child-check-command">{plan.detected}</code>
        </li>
      </ul>
      <span className="muted">
        They verify the child only if they fail before the work and pass after it.
      </span>
    </div>
  ) : null;
  if (plan.named.length === 0)
    return (
      <div className="small" data-testid="child-checks">
        <p className="muted" data-testid="child-checks-none">
          No check named in the acceptance: the model may write one (kept only if the command policy would run
          it unasked).
          {plan.detected
            ? " If it writes none, these checks will run without asking:"
            : " Without one this child cannot be verified."}
        </p>
        {fallback}
      </div>
    );
  return (
    <div className="small" data-testid="child-checks">
      These checks will run without asking
      {plan.source === "request" ? " (the child is itself this command)" : ""}:
      <ul>
        {plan.named.map((command) => (
          <li key={command}>
            <code data-testid="child-check-command">{command}</code>
          </li>
        ))}
      </ul>
      {fallback}
    </div>
  );
}

/** The regression guard a root's card covers: the project's tests before and after the work. */
export function GuardCheck({ command }: { command: string | null }) {
  if (command === null) return null;
  return (
    <div className="small" data-testid="guard-check">
      Before any work and again at the end, the project's tests run without asking as a regression guard (they
      can only stop a "verified", never give one): <code data-testid="guard-check-command">{command}</code>
    </div>
  );
}

/** The split intention's own checks, run at integration once every child is verified. */
export function IntegrationChecks({ commands }: { commands: string[] }) {
  if (commands.length === 0) return null;
  return (
    <div className="small" data-testid="integration-checks">
      When every child is verified, these checks of the whole will run without asking:
      <ul>
        {commands.map((command) => (
          <li key={command}>
            <code data-testid="integration-check-command">{command}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}
