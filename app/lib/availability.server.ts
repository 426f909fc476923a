// When the service cannot answer: a database that is gone (503 + Retry-After instead of a 500
// page or a hang) and the drain of a graceful shutdown (readiness fails, connections close).
import type { NextFunction, Request, Response } from "express";

/** Seconds a client (or a load balancer) should wait before retrying a 503. */
export const RETRY_AFTER_SECONDS = 5;

// Node socket errors, and PostgreSQL SQLSTATEs of class 08 (connection exception), 57P01–03
// (shutdown, crash, cannot connect now), 53300 (too many connections) and 57014 (statement
// timeout: the database is too slow to serve this request now).
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "08007",
  "08P01",
  "53300",
  "57014",
  "57P01",
  "57P02",
  "57P03",
]);

// node-postgres reports lost connections and pool timeouts with plain messages.
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /^Query read timeout$/,
  /Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
  /^Database not initialised/,
];

/** Whether an error (or one of its causes) means the database cannot be reached right now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.size < 10) {
    const e = queue.shift();
    if (!e || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    const { code, message, cause, errors } = e as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === "string" && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.some((re) => re.test(message))) return true;
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...(errors as unknown[]));
  }
  return false;
}

let draining = false;

/** The server is shutting down: it finishes what it has and takes nothing new. */
export function isDraining(): boolean {
  return draining;
}

export function startDraining(): void {
  draining = true;
}

/** For tests: back to serving. */
export function stopDraining(): void {
  draining = false;
}

/** What the request handler marks on the load context of a request that met an outage. */
export type AvailabilityContext = { databaseUnavailable?: boolean };

/**
 * Express, decided when the response headers go out:
 * - during the drain every response closes its connection, including the responses of requests
 *   that started before it (so that kept-alive clients reconnect elsewhere and the drain ends as
 *   soon as the in-flight requests are answered);
 * - a 500 caused by a database outage (flagged on the request's load context,
 *   `res.locals.loadContext`) goes out as 503 with Retry-After, whatever route produced it.
 */
export function availabilityMiddleware(_req: Request, res: Response, next: NextFunction): void {
  const writeHead = res.writeHead as (...args: unknown[]) => Response;
  res.writeHead = ((statusCode: number, ...rest: unknown[]) => {
    const context = res.locals.loadContext as AvailabilityContext | undefined;
    if (statusCode === 500 && context?.databaseUnavailable) {
      statusCode = 503;
      res.statusMessage = "Service Unavailable";
      res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
    }
    if (isDraining()) res.setHeader("Connection", "close");
    return writeHead.call(res, statusCode, ...rest);
  }) as Response["writeHead"];
  next();
}
