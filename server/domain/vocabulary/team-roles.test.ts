import { describe, expect, it } from "vitest";
import {
  ACTIONS,
  type Action,
  can,
  checkRemoval,
  checkRoleChange,
  grantableRoles,
  parseRole,
  permissionsOf,
  ROLES,
  type Role,
  refusal,
} from "./team-roles";

/** The whole policy written out by hand, so a change to the table is a visible change here. */
const EXPECTED: Record<Role, Record<Action, boolean>> = {
  viewer: {
    read: true,
    approve: false,
    run: false,
    work: false,
    terminal: false,
    edit: false,
    createProject: false,
    projectModel: false,
    editIntents: false,
    settings: false,
    deleteProject: false,
    manageMembers: false,
    manageWebhooks: false,
    answerAnyApproval: false,
  },
  member: {
    read: true,
    approve: true,
    run: true,
    work: true,
    terminal: true,
    edit: true,
    createProject: true,
    projectModel: true,
    editIntents: true,
    settings: false,
    deleteProject: false,
    manageMembers: false,
    manageWebhooks: false,
    answerAnyApproval: false,
  },
  admin: {
    read: true,
    approve: true,
    run: true,
    work: true,
    terminal: true,
    edit: true,
    createProject: true,
    projectModel: true,
    editIntents: true,
    settings: true,
    deleteProject: true,
    manageMembers: true,
    manageWebhooks: true,
    answerAnyApproval: true,
  },
  owner: {
    read: true,
    approve: true,
    run: true,
    work: true,
    terminal: true,
    edit: true,
    createProject: true,
    projectModel: true,
    editIntents: true,
    settings: true,
    deleteProject: true,
    manageMembers: true,
    manageWebhooks: true,
    answerAnyApproval: true,
  },
};

describe("role × action", () => {
  const table = ROLES.flatMap((role) => ACTIONS.map((action) => [role, action] as const));
  it.each(table)("%s may %s as the table says", (role, action) => {
    expect(can(role, action)).toBe(EXPECTED[role][action]);
    expect(permissionsOf(role)[action]).toBe(EXPECTED[role][action]);
  });

  it("covers every action in the table", () => {
    expect(Object.keys(EXPECTED.viewer).sort()).toEqual([...ACTIONS].sort());
  });

  it("gives no role nothing, and unknown stored roles are no role", () => {
    for (const action of ACTIONS) expect(can(null, action)).toBe(false);
    expect(parseRole("superuser")).toBeNull();
    expect(parseRole(undefined)).toBeNull();
    expect(parseRole("viewer")).toBe("viewer");
  });

  it("explains a refusal in words a viewer understands", () => {
    expect(refusal("viewer", "approve")).toBe(
      "Viewers can watch but not approve. Ask an owner or admin of the team to make you a member.",
    );
    expect(refusal("member", "settings")).toBe(
      "Members cannot change project settings. Ask an owner or admin of the team to make you an admin.",
    );
  });
});

const owner = (userId = "o1") => ({ userId, role: "owner" as const });
const admin = (userId = "a1") => ({ userId, role: "admin" as const });
const member = (userId = "m1") => ({ userId, role: "member" as const });
const viewer = (userId = "v1") => ({ userId, role: "viewer" as const });

describe("role changes", () => {
  it("lets owners grant every role and admins every role but owner", () => {
    expect(grantableRoles("owner")).toEqual(["viewer", "member", "admin", "owner"]);
    expect(grantableRoles("admin")).toEqual(["viewer", "member", "admin"]);
    expect(grantableRoles("member")).toEqual([]);
    expect(grantableRoles("viewer")).toEqual([]);
  });

  it("allows an admin to promote a viewer to member", () => {
    expect(checkRoleChange({ actor: admin(), target: viewer(), next: "member", ownerCount: 1 })).toEqual({
      ok: true,
    });
  });

  it("refuses members and viewers", () => {
    for (const actor of [member("x"), viewer("x")]) {
      const verdict = checkRoleChange({ actor, target: viewer(), next: "member", ownerCount: 1 });
      expect(verdict).toMatchObject({ ok: false, code: "FORBIDDEN" });
    }
  });

  it("keeps owners out of an admin's reach", () => {
    expect(checkRoleChange({ actor: admin(), target: member(), next: "owner", ownerCount: 1 })).toMatchObject(
      {
        ok: false,
        message: "Only an owner can make someone an owner.",
      },
    );
    expect(checkRoleChange({ actor: admin(), target: owner(), next: "member", ownerCount: 2 })).toMatchObject(
      { ok: false, message: "Only an owner can change an owner's role." },
    );
  });

  it("never demotes the last owner, even by themselves", () => {
    expect(checkRoleChange({ actor: owner(), target: owner(), next: "admin", ownerCount: 1 })).toMatchObject({
      ok: false,
      code: "CONFLICT",
    });
    expect(checkRoleChange({ actor: owner(), target: owner("o2"), next: "admin", ownerCount: 2 })).toEqual({
      ok: true,
    });
  });
});

describe("removals", () => {
  it("lets anyone leave except the last owner", () => {
    expect(checkRemoval({ actor: viewer(), target: viewer(), ownerCount: 1 })).toEqual({ ok: true });
    expect(checkRemoval({ actor: owner(), target: owner(), ownerCount: 1 })).toMatchObject({
      ok: false,
      code: "CONFLICT",
      message: "You are the last owner. Make someone else an owner before you leave.",
    });
    expect(checkRemoval({ actor: owner(), target: owner(), ownerCount: 2 })).toEqual({ ok: true });
  });

  it("lets admins remove non-owners only, and members nobody", () => {
    expect(checkRemoval({ actor: admin(), target: member(), ownerCount: 1 })).toEqual({ ok: true });
    expect(checkRemoval({ actor: admin(), target: owner(), ownerCount: 2 })).toMatchObject({
      ok: false,
      code: "FORBIDDEN",
    });
    expect(checkRemoval({ actor: member(), target: viewer(), ownerCount: 1 })).toMatchObject({
      ok: false,
      code: "FORBIDDEN",
    });
  });

  it("never removes the last owner", () => {
    expect(checkRemoval({ actor: owner("o2"), target: owner(), ownerCount: 1 })).toMatchObject({
      ok: false,
      code: "CONFLICT",
    });
  });
});
