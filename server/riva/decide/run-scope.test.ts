import { describe, expect, it } from "vitest";
import { emptySessionView } from "@/server/domain/session/fold";
import type { SessionView } from "@/server/domain/session/view";
import { scopeBinding } from "@/server/policy/approval/approved-scopes";
import { enforcedScope } from "./run-scope";

/** Which scope binds a live call: a person-approved child scope, else the selected intent's, else all. */

const given = { id: "i-child", ownedScope: ["**"] };
const refuse = { outOfScopeWrites: "refuse" as const };

function view(options: { approved?: boolean; tampered?: boolean; selected?: boolean }): SessionView {
  const base = emptySessionView();
  const child = {
    id: "i-child",
    runId: "r1",
    parentId: "i-root",
    what: "fix the parser",
    acceptance: "tests pass",
    ownedScope: options.approved ? ["src/parser/**"] : [],
    scopeApproval: null as null | { approvalId: string; binding: string; approvedBy: string },
  };
  if (options.approved) {
    const binding = scopeBinding({
      intentionId: child.id,
      what: options.tampered ? "something else" : child.what,
      acceptance: child.acceptance,
      ownedScope: child.ownedScope,
    });
    child.scopeApproval = { approvalId: "a1", binding, approvedBy: "Ada" };
  }
  const root = { ...child, id: "i-root", parentId: null, ownedScope: [], scopeApproval: null };
  const grandchild = { ...child, id: "i-grand", parentId: "i-child", ownedScope: [], scopeApproval: null };
  base.intentions = {
    "i-root": root,
    "i-child": child,
    "i-grand": grandchild,
  } as unknown as SessionView["intentions"];
  base.runs = {
    r1: {
      selectedIntent: options.selected
        ? { intentId: "INT-001", ownedScope: ["docs/**"], intentionId: "i-root" }
        : null,
    },
  } as unknown as SessionView["runs"];
  return base;
}

describe("enforcedScope", () => {
  it("is the whole workspace when nothing narrows it", () => {
    expect(enforcedScope(view({}), "r1", "i-child", given, refuse)).toEqual({
      activeIntent: given,
      outside: "refuse",
    });
  });

  it("is the selected project intent's owned_scope", () => {
    const { activeIntent } = enforcedScope(view({ selected: true }), "r1", "i-child", given, refuse);
    expect(activeIntent?.ownedScope).toEqual(["docs/**"]);
    expect(activeIntent?.id).toMatch(/^INT-001/);
  });

  it("is a person-approved scope first, for the child and its descendants", () => {
    const approved = view({ approved: true, selected: true });
    expect(enforcedScope(approved, "r1", "i-child", given, refuse).activeIntent?.ownedScope).toEqual([
      "src/parser/**",
    ]);
    expect(enforcedScope(approved, "r1", "i-grand", given, refuse).activeIntent?.ownedScope).toEqual([
      "src/parser/**",
    ]);
  });

  it("ignores an approval whose binding does not match the log (fails closed to the run's scope)", () => {
    const tampered = view({ approved: true, tampered: true, selected: true });
    expect(enforcedScope(tampered, "r1", "i-child", given, refuse).activeIntent?.ownedScope).toEqual([
      "docs/**",
    ]);
  });

  it("carries the project's choice to ask instead of refusing", () => {
    expect(
      enforcedScope(view({ selected: true }), "r1", "i-child", given, { outOfScopeWrites: "ask" }).outside,
    ).toBe("ask");
  });
});
