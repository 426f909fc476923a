// better-auth error codes → the spec's French messages.
import { MESSAGES } from "./auth.schema";

export function authErrorCode(error: unknown): string | undefined {
  if (error && typeof error === "object" && "body" in error) {
    const body = (error as { body?: { code?: unknown } }).body;
    if (typeof body?.code === "string") return body.code;
  }
  return undefined;
}

export function authErrorStatus(error: unknown): number | undefined {
  if (error && typeof error === "object" && "statusCode" in error) {
    const s = (error as { statusCode?: unknown }).statusCode;
    if (typeof s === "number") return s;
  }
  return undefined;
}

const BY_CODE: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: MESSAGES.invalidCredentials,
  INVALID_PASSWORD: MESSAGES.invalidCredentials,
  USER_NOT_FOUND: MESSAGES.invalidCredentials,
  CREDENTIAL_ACCOUNT_NOT_FOUND: MESSAGES.invalidCredentials,
  EMAIL_NOT_VERIFIED: MESSAGES.emailNotVerified,
  USER_ALREADY_EXISTS: MESSAGES.emailTaken,
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: MESSAGES.emailTaken,
  PASSWORD_TOO_SHORT: MESSAGES.passwordTooShort,
  INVALID_EMAIL: MESSAGES.emailInvalid,
  INVALID_TOKEN: MESSAGES.resetLinkInvalid,
};

export function frenchAuthError(error: unknown): string {
  const code = authErrorCode(error);
  if (code && BY_CODE[code]) return BY_CODE[code];
  if (authErrorStatus(error) === 429) return MESSAGES.tooManyAttempts;
  return MESSAGES.unexpected;
}
