// The Node server: security headers, same-origin check, static files, React Router handler.
// `npm run build` compiles it to build/server.js, which `npm start` / `npm run serve` run with
// plain node; `npm run dev` runs it from this file (tsx) with Vite. It imports no app module:
// those come through the server build, one instance each (decision 042).
import { randomBytes, randomUUID } from "node:crypto";
import { Server as NetServer } from "node:net";
import path from "node:path";
import { constants as zlibConstants } from "node:zlib";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import type { ServerBuild } from "react-router";
import type * as AppModules from "./app/server-modules.server";

const DEV = process.argv.includes("--dev");
if (!DEV) process.env.NODE_ENV = "production";

/** The path as the router will see it (the URL is built as @react-router/express does: dot
 * segments resolved, %2e decoded), so that `/api/webhooks/../auth` is not taken for a webhook. */
function routedPath(originalUrl: string): string {
  try {
    return new URL(`http://x${originalUrl}`).pathname;
  } catch {
    return originalUrl;
  }
}

/** A path whose last segment has an extension (`/favicon.svg`), as every file of build/client has, but not a `.data` navigation. */
function isClientFilePath(pathname: string): boolean {
  const last = pathname.slice(pathname.lastIndexOf("/") + 1);
  return last.lastIndexOf(".") > 0 && !last.endsWith(".data");
}

/** The app modules server.ts uses, as the server build exports them (app/entry.server.tsx). */
function appModulesOf(build: ServerBuild): typeof AppModules {
  const modules = (build.entry.module as { serverModules?: typeof AppModules }).serverModules;
  if (!modules) throw new Error("The server build exports no serverModules (app/entry.server.tsx)");
  return modules;
}

async function main() {
  // Development: Vite serves the app from its sources; production: the build of `npm run build`.
  const vite = DEV ? await import("vite").then((v) => v.createServer({ server: { middlewareMode: true } })) : undefined;
  const loadBuild = vite
    ? () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>
    : () => import(path.resolve("build/server/index.js")) as Promise<ServerBuild>;
  const modules = appModulesOf(await loadBuild());
  const { EnvError, listenUrl } = modules;
  let booted: Awaited<ReturnType<typeof modules.boot>>;
  try {
    booted = await modules.boot();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const { env, dispatcher, database } = booted;
  const { logger } = modules;
  const jobStart = env.JOBS_START_DELAY_MS === undefined ? {} : { initialDelayMs: env.JOBS_START_DELAY_MS };
  // Background jobs (safe on every instance): the 7-day mandate expiry reminder.
  const { startExpiryReminderJob } = modules;
  const expiryReminders = startExpiryReminderJob(jobStart);
  // The insurance certificate reminders, 30 and 7 days before its end date (issue 14).
  const { startInsuranceReminderJob } = modules;
  const insuranceReminders = startInsuranceReminderJob(jobStart);
  // Ratings whose 14-day window closed are shown and e-mailed; reputation figures recomputed hourly.
  const { startReputationJob } = modules;
  const reputationRefresh = startReputationJob(jobStart);
  // Notifications past their 90 days are purged; live streams end when a shutdown starts (issue 15).
  const { startNotificationPurgeJob } = modules;
  const notificationPurge = startNotificationPurgeJob(jobStart);
  // The daily and weekly e-mail digests, one per member and period whatever the number of instances.
  const { startDigestJob } = modules;
  const digests = startDigestJob(jobStart);
  const { closeLiveNotifications } = modules;
  const { availabilityMiddleware, startDraining } = modules;
  const appOrigin = new URL(env.APP_URL).origin;
  const https = appOrigin.startsWith("https://");

  const app = express();
  app.disable("x-powered-by");
  // Behind a proxy, trust the one hop in front: the client address is the one that proxy appended
  // to X-Forwarded-For, never what a client wrote before it (`true` would take the leftmost).
  app.set("trust proxy", env.TRUST_PROXY ? 1 : false);

  // ── Metrics and traces (decision 043; app/lib/metrics): /metrics, every request timed by route id.
  const { installMetrics, liveStreamCount } = modules;
  const metrics = await installMetrics(app, { env, database, liveStreams: liveStreamCount });
  // ── end of metrics

  // Every request runs in its own scope (app/lib/request-scope.server.ts): what its loaders ask
  // again is read once, and its SQL statements are counted.
  const { currentRequestScope, withRequestScope } = modules;
  const { caches, startCaches, touchesPublicContent } = modules;
  const { readAfterWriteCookie } = modules;
  // Every cache of the instance (decision 048): only while it hears the invalidation channel.
  const stopCaches = database.listen
    ? startCaches(caches(), database.listen, { sessionTtlMs: env.SESSION_CACHE_TTL_MS, pageCacheBytes: DEV ? 0 : env.PAGE_CACHE_MB * 1024 * 1024, off: env.CACHES_OFF })
    : undefined;
  const queryStats = env.QUERY_STATS;
  // Benchmark only: the statements of the requests that ask for it (`X-Query-Log: <label>`), for
  // the bench's EXPLAIN (QUERY_LOG).
  const queryLog = env.QUERY_LOG;
  app.use((req: Request, res: Response, next: NextFunction) => {
    const label = queryLog ? req.get("x-query-log") : undefined;
    const log = queryLog && label ? { file: queryLog, label, path: req.originalUrl } : null;
    return withRequestScope(req.method, () => {
      const scope = currentRequestScope();
      // What a request's writes invalidated is dropped again once its work is committed, before
      // its response leaves (app/lib/cache.server.ts).
      const writeHeadGuard = res.writeHead.bind(res) as (...args: unknown[]) => Response;
      res.writeHead = ((...args: unknown[]) => {
        if (scope?.invalidated.size) caches().drop(scope.invalidated);
        // One that wrote public content reads it from the primary for a while (decision 022).
        if (scope && touchesPublicContent(scope.invalidated) && database.read) res.appendHeader("Set-Cookie", readAfterWriteCookie(Date.now(), env.DATABASE_READ_AFTER_WRITE_MS, https));
        return writeHeadGuard(...args);
      }) as typeof res.writeHead;
      if (queryStats) {
        // Loaders run before the headers are written, so the count is complete for pages; for a
        // streamed body, statements run after the headers are not counted.
        const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
        res.writeHead = ((...args: unknown[]) => {
          if (scope && !res.headersSent) res.setHeader("X-Query-Count", String(scope.queries));
          return writeHead(...args);
        }) as typeof res.writeHead;
      }
      next();
    }, log);
  });

  // Request id, client address and security headers for every response.
  const { contentSecurityPolicy } = modules;
  const cspOptions = { formAction: ["'self'", ...(env.STRIPE_SECRET_KEY ? ["https://checkout.stripe.com"] : [])], https };
  // A page served from the page cache swaps the nonce for its scripts' hashes (app/lib/page-cache.server.ts).
  const policy = (scriptSources: readonly string[]) => contentSecurityPolicy(scriptSources, cspOptions);
  app.use((req: Request, res: Response, next: NextFunction) => {
    const requestId = randomUUID();
    const nonce = randomBytes(16).toString("base64");
    res.locals.requestId = requestId;
    res.locals.nonce = nonce;
    // The only client address the app trusts: the socket, or X-Forwarded-For when TRUST_PROXY.
    req.headers["x-rt-client-ip"] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    res.setHeader("X-Request-Id", requestId);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    if (https) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    if (!DEV) {
      res.locals.contentSecurityPolicy = policy;
      res.setHeader("Content-Security-Policy", policy([`'nonce-${nonce}'`]));
    }
    next();
  });

  // A signed-in request's responses, and any that sets a cookie, are private, no-store (issue 26).
  const { privateResponses, resourceDataRedirect } = modules;
  app.use(privateResponses);

  // Drain (graceful shutdown): `Connection: close`; database outage: 503 + Retry-After.
  app.use(availabilityMiddleware);

  // CSRF: a state-changing request must come from our own origin. Browsers always send Origin
  // on cross-site POSTs; non-browser clients without Origin/Sec-Fetch-Site are not a CSRF vector.
  // Webhooks are authenticated by their signature instead.
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    if (routedPath(req.originalUrl).startsWith("/api/webhooks/")) return next();
    const origin = req.get("origin");
    const site = req.get("sec-fetch-site");
    const hostOrigin = `${req.protocol}://${req.get("host")}`;
    const allowed = origin ? origin === appOrigin || origin === hostOrigin : site ? site === "same-origin" || site === "none" : true;
    if (!allowed) {
      logger.warn({ origin, site, path: req.path, requestId: res.locals.requestId }, "cross-origin request refused");
      res.status(403).type("text/plain; charset=utf-8").send("Requête refusée : origine non autorisée.");
      return;
    }
    next();
  });

  // Page actions read HTML forms: any other body (text/plain, JSON, none) would make
  // `request.formData()` throw, a 500. Refused here with a 415 and a French message. The API
  // routes (/api/…: better-auth's JSON, uploads, webhooks) read their own formats.
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    if (routedPath(req.originalUrl).startsWith("/api/")) return next();
    const type = (req.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type === "application/x-www-form-urlencoded" || type === "multipart/form-data") return next();
    res.status(415).type("text/plain; charset=utf-8").send("Requête refusée : envoyez le formulaire depuis le site.");
  });

  // Fast settings for what is compressed on the fly (the page cache compresses its pages once, at
  // higher settings). Brotli's default 4 MB window made every browser's response cost twice the
  // CPU of gzip's; a 256 KB window holds any page (decision 080).
  app.use(
    compression({
      level: 3,
      brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 2, [zlibConstants.BROTLI_PARAM_LGWIN]: 18 } },
    }),
  );
  // React Router's stream writer flushes after every chunk; behind compression each flush ends a
  // gzip block, which made pages ~3× larger on the wire (docs/decisions/history/bench-issue-17.md).
  // No page streams deferred data, so compression may buffer as usual until the response ends.
  app.use((_req: Request, res: Response, next: NextFunction) => {
    (res as Response & { flush?: () => void }).flush = () => {};
    next();
  });

  // Anonymous public pages are served from memory (decision 007; the "public-pages" cache).
  const { pageCacheMiddleware } = modules;
  if (stopCaches && !DEV) app.use(pageCacheMiddleware());

  // In production the build is handed over as an object: given a function, React Router calls
  // it and derives its route tables again on every request (meant for HMR in development).
  let build: ServerBuild | (() => Promise<ServerBuild>);
  if (vite) {
    app.use(vite.middlewares);
    build = loadBuild;
  } else {
    const clientDir = path.resolve("build/client");
    app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
    // The other files of build/client (favicon.svg…) all have an extension: a page's path, and a
    // client navigation's `.data`, go straight to the router instead of costing a failed stat().
    const serveClientFile = express.static(clientDir, { maxAge: "1h", index: false });
    app.use((req: Request, res: Response, next: NextFunction) => (isClientFilePath(req.path) ? serveClientFile(req, res, next) : next()));
    build = await loadBuild();
  }

  metrics.setBuild(build); // metrics: requests labelled by this build's route ids

  // A resource route's `.data` form never runs its loader: a reload of its own URL instead.
  app.use(resourceDataRedirect(build));
  app.all(
    "/{*splat}",
    createRequestHandler({
      build,
      mode: DEV ? "development" : "production",
      // Kept on res.locals: availabilityMiddleware reads the outage flag the app sets on it.
      getLoadContext: (_req, res) =>
        (res.locals.loadContext = {
          nonce: res.locals.nonce as string,
          requestId: res.locals.requestId as string,
        }),
    }),
  );

  const server = app.listen(env.PORT, env.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    logger.info({ url: env.APP_URL, port, driver: database.driver }, `${env.APP_NAME} listening on http://${env.HOST}:${port}`);
    const listening = listenUrl(env.HOST, port);
    console.log(`${env.APP_NAME} prêt sur ${env.APP_URL}`);
    if (new URL(listening).origin !== new URL(env.APP_URL).origin) {
      console.log(`  (le serveur écoute sur ${listening} ; les liens des e-mails pointent vers APP_URL = ${env.APP_URL})`);
    }
    if (!env.SMTP_URL) {
      console.log(`  Sans SMTP_URL, les e-mails restent dans la boîte locale : ${listening}/dev/mailbox (accessible depuis cette machine uniquement).`);
    }
  });

  // Graceful shutdown: readiness fails and every response closes its connection
  // (availabilityMiddleware), the listener stops (new connections are refused), in-flight requests
  // finish within DRAIN_MS; then the jobs, the dispatcher and last the database stop.
  const DRAIN_MS = 10_000;
  // A kept-alive connection idle at the signal may have a request on its way: it is closed only
  // once it has stayed idle this long (a busy one closes after its next response).
  const IDLE_GRACE_MS = 1_000;
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    startDraining();
    logger.info({ signal }, "shutting down: finishing in-flight requests");
    // Event streams never finish by themselves: ended now, the browsers reconnect elsewhere.
    const liveClosed = closeLiveNotifications();
    setTimeout(() => process.exit(1), DRAIN_MS + 5_000).unref();
    const drained = new Promise<boolean>((resolve) => {
      const deadline = setTimeout(() => resolve(false), DRAIN_MS);
      // net.Server's close: stops accepting and calls back once every connection is closed,
      // without http.Server's immediate closeIdleConnections() (which resets requests in transit).
      NetServer.prototype.close.call(server, () => {
        clearTimeout(deadline);
        clearInterval(idleSweep);
        resolve(true);
      });
      const idleSweep = setInterval(() => server.closeIdleConnections(), IDLE_GRACE_MS);
    });
    void drained.then(async (complete) => {
      if (!complete) {
        logger.warn({ drainMs: DRAIN_MS }, "shutdown: requests still running after the drain deadline, closing their connections");
        server.closeAllConnections();
      }
      expiryReminders.stop();
      insuranceReminders.stop();
      reputationRefresh.stop();
      notificationPurge.stop();
      digests.stop();
      await liveClosed;
      await stopCaches?.();
      await dispatcher.stop();
      await metrics.stop(); // metrics: the last spans exported
      const { closeDatabase } = modules;
      await closeDatabase();
      logger.info({ signal }, "shutdown complete");
      process.exit(complete ? 0 : 1);
    });
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
