/** Errors a person can act on; their messages are safe to show in the browser. */
export class UserFacingError extends Error {
  constructor(
    message: string,
    readonly code: "NOT_FOUND" | "CONFLICT" | "BAD_REQUEST" | "PRECONDITION_FAILED" | "FORBIDDEN",
  ) {
    super(message);
    this.name = "UserFacingError";
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
