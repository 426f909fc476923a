// An admin command that cannot apply: the target does not exist (404) or is not in a state the
// decision allows (409: e.g. a profile that is no longer pending). Nothing was changed.
export class AdminActionError extends Error {
  override name = "AdminActionError";
  readonly status: 404 | 409;
  constructor(status: 404 | 409, message: string) {
    super(message);
    this.status = status;
  }
}

export function isAdminActionError(error: unknown): error is AdminActionError {
  return error instanceof AdminActionError;
}
