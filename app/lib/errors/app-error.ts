// The one error type a feature throws for an expected failure: a code the edge maps to a status,
// and the French sentence shown to the member; services know nothing of HTTP.

export const APP_ERROR_CODES = [
  "invalid",
  "forbidden",
  "not-found",
  "conflict",
  "gone",
  "too-large",
  "unsupported-type",
  "unprocessable",
  "quota-reached",
  "rate-limited",
  "failed",
  "unavailable",
] as const;

export type AppErrorCode = (typeof APP_ERROR_CODES)[number];

/** Extra facts a client reads beside the message (e.g. that an undertaking is still to sign). */
export type AppErrorDetails = Readonly<Record<string, string | number | boolean>>;

export type AppErrorOptions = {
  /** Seconds until a rate-limited attempt may be made again. */
  retryAfterSeconds?: number;
  details?: AppErrorDetails;
  cause?: unknown;
};

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly retryAfterSeconds: number | null;
  readonly details: AppErrorDetails | null;

  constructor(code: AppErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
    this.details = options.details ?? null;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
