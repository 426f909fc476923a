// The route edge: expected failures become HTTP answers here and nowhere else, whether a feature
// threw an AppError or a route or the auth layer threw React Router's `data()` or a Response.
import { data } from "react-router";
import { AppError, type AppErrorCode } from "./app-error";

export const STATUS_OF_CODE: Readonly<Record<AppErrorCode, number>> = {
  invalid: 400,
  forbidden: 403,
  "not-found": 404,
  conflict: 409,
  gone: 410,
  "too-large": 413,
  "unsupported-type": 415,
  unprocessable: 422,
  "quota-reached": 403,
  "rate-limited": 429,
  failed: 500,
  unavailable: 503,
};

export type HttpFailure = { status: number; headers: Headers; body: { message: string } & Record<string, unknown> };

/** The status, headers and JSON body an AppError is answered with. */
export function httpFailure(error: AppError): HttpFailure {
  const headers = new Headers();
  if (error.retryAfterSeconds !== null) headers.set("Retry-After", String(error.retryAfterSeconds));
  return { status: STATUS_OF_CODE[error.code], headers, body: { message: error.message, ...error.details } };
}

// React Router's `data()` has no public guard; its thrown value is recognised by shape here only.
type ThrownData = { type: "DataWithResponseInit"; data: unknown; init: ResponseInit | null };

function isThrownData(error: unknown): error is ThrownData {
  return typeof error === "object" && error !== null && (error as { type?: unknown }).type === "DataWithResponseInit";
}

/** The HTTP status of an expected failure, or null for an unexpected error (a bug, the database down…). */
export function expectedStatus(error: unknown): number | null {
  if (error instanceof AppError) return STATUS_OF_CODE[error.code];
  if (isThrownData(error)) return error.init?.status ?? 200;
  if (error instanceof Response) return error.status;
  return null;
}

/** The French message carried by an expected failure, or the fallback. */
export function expectedMessage(error: unknown, fallback: string): string {
  if (error instanceof AppError) return error.message;
  if (isThrownData(error)) {
    const body = error.data as { message?: unknown } | null;
    if (body && typeof body.message === "string") return body.message;
  }
  return fallback;
}

/** Retry-After of a rate-limited failure, if any. */
export function retryAfterOf(error: unknown): string | null {
  if (error instanceof AppError) return error.retryAfterSeconds === null ? null : String(error.retryAfterSeconds);
  if (isThrownData(error)) return new Headers(error.init?.headers).get("retry-after");
  return null;
}

/** What a loader or action throws on: an AppError becomes `data({ message }, { status })`. */
export function toRouteError(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  const failure = httpFailure(error);
  return data(failure.body, { status: failure.status, headers: failure.headers });
}

/** Wraps a loader or action so the expected failures it lets through reach the error boundary with their status. */
export function atEdge<A extends unknown[], R>(handler: (...args: A) => R): (...args: A) => Promise<Awaited<R>> {
  return async (...args: A): Promise<Awaited<R>> => {
    try {
      return await handler(...args);
    } catch (error) {
      throw toRouteError(error);
    }
  };
}

/** The plain-text answer of a resource route's expected failure (it has no error page); an unexpected error is thrown again. */
export function expectedFailureResponse(error: unknown, fallback: string): Response {
  const status = expectedStatus(error);
  if (status === null) throw error;
  const headers = new Headers({ "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
  const retryAfter = retryAfterOf(error);
  if (retryAfter) headers.set("retry-after", retryAfter);
  return new Response(expectedMessage(error, fallback), { status, headers });
}
