// Expected failures are thrown by features as `data({ message }, { status })` (DESIGN §4.7).
// Routes that answer a fetcher turn them into a French error message instead of an error page.

type ThrownData = { type: "DataWithResponseInit"; data: unknown; init: ResponseInit | null };

function isThrownData(error: unknown): error is ThrownData {
  return typeof error === "object" && error !== null && (error as { type?: unknown }).type === "DataWithResponseInit";
}

/** The HTTP status of an expected failure, or null for an unexpected error (a bug, the database down…). */
export function expectedStatus(error: unknown): number | null {
  if (isThrownData(error)) return error.init?.status ?? 200;
  if (error instanceof Response) return error.status;
  return null;
}

/** The French message carried by an expected failure, or the fallback. */
export function expectedMessage(error: unknown, fallback: string): string {
  if (isThrownData(error)) {
    const body = error.data as { message?: unknown } | null;
    if (body && typeof body.message === "string") return body.message;
  }
  return fallback;
}

/** Retry-After of a rate-limited failure, if any. */
export function retryAfterOf(error: unknown): string | null {
  if (isThrownData(error)) return new Headers(error.init?.headers).get("retry-after");
  return null;
}
