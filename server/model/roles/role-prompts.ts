/** Full mode's role prompts and the variables each is rendered with (checked at startup). */
export const ROLE_PROMPTS = [
  { prompt: "role-librarian", variables: ["task", "files", "priorAttempts"] },
  { prompt: "role-critic", variables: ["task"] },
  { prompt: "role-chaos", variables: ["task", "framework"] },
  { prompt: "librarian-files", variables: ["files"] },
] as const;
