import { z } from "zod";

/**
 * Team roles and what each may do. Pure: the tRPC builders in `server/api/trpc.ts` enforce it on the
 * server, the browser imports the same table to hide or disable what a role may not use.
 */

/** Ordered from least to most trusted: a role may do everything the roles before it may. */
export const ROLES = ["viewer", "member", "admin", "owner"] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/** A stored role string as a `Role`; anything unknown is no role at all (fail closed). */
export function parseRole(value: unknown): Role | null {
  const parsed = Role.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function rank(role: Role): number {
  return ROLES.indexOf(role);
}

export function atLeast(role: Role, minimum: Role): boolean {
  return rank(role) >= rank(minimum);
}

/**
 * Everything a procedure can ask for, with the least role allowed to do it. Viewers watch (projects,
 * sessions, live events, replays, downloads); members do the agent work; admins and owners run the
 * team and the project settings.
 */
export const ACTION_MINIMUM = {
  /** Projects, sessions, live events, replays, exports and downloads. */
  read: "viewer",
  /** Approve, reject or edit an approval, and delegate one to a member. */
  approve: "member",
  /** Start or stop runs, open sessions, post messages, import a session. */
  run: "member",
  /** Save, merge or discard a session's work. */
  work: "member",
  /** Open, type in, resize or close a session's terminal (watching it is `read`). */
  terminal: "member",
  /** Save files in the session's editor (listing and reading them is `read`). */
  edit: "member",
  createProject: "member",
  /** Project settings: checkpoints, model providers. */
  settings: "admin",
  /** Delete a project with everything Arbor keeps of it (sessions, sandboxes, cache, images, repository copy). */
  deleteProject: "admin",
  /** A project's own model settings (provider, base URL, model, key, timeout) and testing them. */
  projectModel: "member",
  /** Add, edit and retire a project's intents (what the agent may change, and where). */
  editIntents: "member",
  /** Invitations, roles, removing members. */
  manageMembers: "admin",
  /** The team's outgoing webhooks: add, remove, read their delivery log (issue #21.4). */
  manageWebhooks: "admin",
  /** Answer an approval that was delegated to somebody else. */
  answerAnyApproval: "admin",
} as const satisfies Record<string, Role>;
export type Action = keyof typeof ACTION_MINIMUM;
export const ACTIONS = Object.keys(ACTION_MINIMUM) as Action[];

/** The least role for anything that changes a team's data: viewers never change anything. */
export const MUTATION_MINIMUM: Role = "member";

export function can(role: Role | null, action: Action): boolean {
  return role !== null && atLeast(role, ACTION_MINIMUM[action]);
}

const ACTION_PHRASES: Record<Action, string> = {
  read: "open this team's projects",
  approve: "approve",
  run: "start or stop runs or post messages",
  work: "save, merge or discard work",
  terminal: "type in the terminal",
  edit: "save files in the editor",
  createProject: "create projects",
  settings: "change project settings",
  deleteProject: "delete projects",
  projectModel: "change this project's model settings",
  editIntents: "change this project's intents",
  manageMembers: "manage members and invitations",
  manageWebhooks: "manage the team's webhooks",
  answerAnyApproval: "answer an approval delegated to someone else",
};

const ROLE_PLURALS: Record<Role, string> = {
  viewer: "Viewers",
  member: "Members",
  admin: "Admins",
  owner: "Owners",
};

/** What a person reads when a control is disabled or a call is refused: who may, and who to ask. */
export function refusal(role: Role, action: Action): string {
  const minimum = ACTION_MINIMUM[action];
  const who = minimum === "member" ? "a member" : minimum === "admin" ? "an admin" : `an ${minimum}`;
  const lead = role === "viewer" ? "Viewers can watch but not" : `${ROLE_PLURALS[role]} cannot`;
  return `${lead} ${ACTION_PHRASES[action]}. Ask an owner or admin of the team to make you ${who}.`;
}

/** Every action a role may take, for the browser (one round trip, one source of truth). */
export function permissionsOf(role: Role): Record<Action, boolean> {
  return Object.fromEntries(ACTIONS.map((action) => [action, can(role, action)])) as Record<Action, boolean>;
}

/* Membership changes. */

export interface MemberRef {
  userId: string;
  role: Role;
}

export type Verdict = { ok: true } | { ok: false; code: "FORBIDDEN" | "CONFLICT"; message: string };
const allow: Verdict = { ok: true };
const deny = (code: "FORBIDDEN" | "CONFLICT", message: string): Verdict => ({ ok: false, code, message });

/** Roles an actor may hand out (in an invitation or a role change): only owners make owners. */
export function grantableRoles(actor: Role): Role[] {
  if (actor === "owner") return [...ROLES];
  if (actor === "admin") return ["viewer", "member", "admin"];
  return [];
}

/**
 * May `actor` give `target` the role `next`? Admins manage members but not owners; only an owner
 * touches an owner; the last owner cannot be demoted (the team would have nobody to run it).
 */
export function checkRoleChange(input: {
  actor: MemberRef;
  target: MemberRef;
  next: Role;
  ownerCount: number;
}): Verdict {
  const { actor, target, next, ownerCount } = input;
  if (!can(actor.role, "manageMembers")) return deny("FORBIDDEN", refusal(actor.role, "manageMembers"));
  if (target.role === "owner" && actor.role !== "owner")
    return deny("FORBIDDEN", "Only an owner can change an owner's role.");
  if (!grantableRoles(actor.role).includes(next))
    return deny("FORBIDDEN", "Only an owner can make someone an owner.");
  if (target.role === "owner" && next !== "owner" && ownerCount <= 1)
    return deny("CONFLICT", "The last owner cannot be demoted. Make someone else an owner first.");
  return allow;
}

/**
 * May `actor` remove `target` from the team? Anyone may leave; admins remove non-owners; owners
 * remove anyone; never the last owner.
 */
export function checkRemoval(input: { actor: MemberRef; target: MemberRef; ownerCount: number }): Verdict {
  const { actor, target, ownerCount } = input;
  const leaving = actor.userId === target.userId;
  if (!leaving && !can(actor.role, "manageMembers"))
    return deny("FORBIDDEN", refusal(actor.role, "manageMembers"));
  if (!leaving && target.role === "owner" && actor.role !== "owner")
    return deny("FORBIDDEN", "Only an owner can remove an owner.");
  if (target.role === "owner" && ownerCount <= 1)
    return deny(
      "CONFLICT",
      leaving
        ? "You are the last owner. Make someone else an owner before you leave."
        : "The last owner cannot be removed. Make someone else an owner first.",
    );
  return allow;
}
