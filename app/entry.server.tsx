import "~/lib/zod-locale";
import { Writable } from "node:stream";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction, HandleErrorFunction } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from "~/lib/availability.server";
import { logger } from "~/lib/logger.server";
import { NonceContext } from "~/lib/request-context";
import "./load-context";

export const streamTimeout = 5_000;

// server.ts takes the app modules it wires (boot, jobs, caches, request scope…) from here, so that
// the one server build holds the only instance of each.
export * as serverModules from "./server-modules.server";

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.nonce ?? "";
  // A loader or action met a database outage (handleError ran first and flagged it): React
  // Router renders again with this 503 in the root error boundary, « Service momentanément
  // indisponible », instead of a generic 500.
  if (loadContext.databaseUnavailable && responseStatusCode !== 503) {
    throw new Response(null, { status: 503, statusText: "Service Unavailable" });
  }
  if (responseStatusCode === 503) responseHeaders.set("Retry-After", String(RETRY_AFTER_SECONDS));
  const userAgent = request.headers.get("user-agent");
  // Bots and no-JS clients get the whole document at once (SEO, link previews).
  const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const status = responseStatusCode;
          // The page is collected, then sent as one body: no page streams deferred
          // data, and the compression middleware buffers the whole response anyway; passing each
          // of React's small chunks through a web stream and into zlib one by one cost more CPU
          // than rendering the frame ("Third pass").
          const chunks: Buffer[] = [];
          const sink = new Writable({
            write(chunk: Buffer | string, _encoding, done) {
              chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
              done();
            },
            final(done) {
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status }));
              done();
            },
          });
          pipe(sink);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logger.error({ err: error, requestId: loadContext.requestId }, "render error");
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}

/**
 * React Router's own error responses (405 for a POST to a page without an action, 400 for a
 * malformed request…) carry a developer message naming internal route ids ("routes/public/
 * annuaire"), which would be serialised into the page and the .data answer. They pass through
 * here before that: the message becomes a French text. The app's own
 * errors, data({ message }), are not touched.
 */
const ROUTER_ERROR_TEXT = "Cette requête ne peut pas être traitée par cette page.";

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (isRouteErrorResponse(error) && (error as { internal?: boolean }).internal) {
    (error as { data: unknown }).data = ROUTER_ERROR_TEXT;
    (error as { error?: unknown }).error = undefined;
    logger.info({ status: error.status, method: request.method, url: request.url }, "request refused by the router");
    return;
  }
  if (request.signal.aborted) return;
  // Expected HTTP responses (404, 403…) are not errors worth logging.
  if (error instanceof Response) return;
  const loadContext = context as AppLoadContext | undefined;
  const requestId = loadContext?.requestId;
  if (isDatabaseUnavailable(error)) {
    // An outage, not a bug: answered 503 + Retry-After (handleRequest, handleDataRequest, server.ts).
    if (loadContext) loadContext.databaseUnavailable = true;
    logger.warn({ requestId, url: request.url, cause: describe(error) }, "database unavailable");
    return;
  }
  logger.error({ err: error, requestId, method: request.method, url: request.url }, "unhandled error");
};

/** Client-side navigations: a plain 503 makes the router show the 503 error boundary. */
export const handleDataRequest: HandleDataRequestFunction = (response, { context }) => {
  if (!(context as AppLoadContext | undefined)?.databaseUnavailable) return response;
  return new Response("Service momentanément indisponible. Veuillez réessayer dans quelques instants.", {
    status: 503,
    statusText: "Service Unavailable",
    headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" },
  });
};

/** The innermost message of an error chain, without the SQL or the stack. */
function describe(error: unknown): string {
  let e: unknown = error;
  for (let i = 0; i < 5 && e instanceof Error && e.cause; i++) e = e.cause;
  if (e instanceof Error) return `${(e as { code?: string }).code ?? e.name}: ${e.message}`;
  return String(e);
}
