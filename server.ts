// The Node server: security headers, same-origin check, static files, React Router handler.
// `npm start` runs it in production after `react-router build`; `npm run dev` with Vite.
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import type { ServerBuild } from "react-router";
import type { boot as Boot } from "./app/lib/boot.server";
import { EnvError } from "./app/lib/env.server";

const DEV = process.argv.includes("--dev");
if (!DEV) process.env.NODE_ENV = "production";

async function main() {
  let booted: Awaited<ReturnType<typeof Boot>>;
  try {
    const { boot } = await import("./app/lib/boot.server");
    booted = await boot();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const { env, dispatcher, database } = booted;
  const { logger } = await import("./app/lib/logger.server");
  // Background jobs (safe on every instance): the 7-day mandate expiry reminder.
  const { startExpiryReminderJob } = await import("./app/features/mandates/expiry-reminders.server");
  const expiryReminders = startExpiryReminderJob();
  const appOrigin = new URL(env.APP_URL).origin;
  const https = appOrigin.startsWith("https://");

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY ? true : false);

  // Request id, client address and security headers for every response.
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
      const formAction = ["'self'", env.STRIPE_SECRET_KEY ? "https://checkout.stripe.com" : ""].filter(Boolean).join(" ");
      res.setHeader(
        "Content-Security-Policy",
        [
          "default-src 'self'",
          `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
          "style-src 'self' 'unsafe-inline'",
          "img-src 'self' data: blob:",
          "font-src 'self'",
          "connect-src 'self'",
          "object-src 'none'",
          "base-uri 'self'",
          `form-action ${formAction}`,
          "frame-ancestors 'none'",
          ...(https ? ["upgrade-insecure-requests"] : []),
        ].join("; "),
      );
    }
    next();
  });

  // CSRF: a state-changing request must come from our own origin. Browsers always send Origin
  // on cross-site POSTs; non-browser clients without Origin/Sec-Fetch-Site are not a CSRF vector.
  // Webhooks are authenticated by their signature instead.
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    if (req.path.startsWith("/api/webhooks/")) return next();
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

  app.use(compression());
  // React Router's stream writer flushes after every chunk; behind compression each flush ends a
  // gzip block, which made pages ~3× larger on the wire (bench/README.md). No page streams
  // deferred data, so compression may buffer as usual until the response ends.
  app.use((_req: Request, res: Response, next: NextFunction) => {
    (res as Response & { flush?: () => void }).flush = () => {};
    next();
  });

  let getBuild: () => Promise<ServerBuild>;
  if (DEV) {
    const vite = await import("vite");
    const viteServer = await vite.createServer({ server: { middlewareMode: true } });
    app.use(viteServer.middlewares);
    getBuild = () => viteServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  } else {
    const clientDir = path.resolve("build/client");
    app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
    app.use(express.static(clientDir, { maxAge: "1h", index: false }));
    const buildPath = path.resolve("build/server/index.js");
    const build = (await import(buildPath)) as ServerBuild;
    getBuild = async () => build;
  }

  app.all(
    "/{*splat}",
    createRequestHandler({
      build: () => getBuild(),
      mode: DEV ? "development" : "production",
      getLoadContext: (_req, res) => ({ nonce: res.locals.nonce as string, requestId: res.locals.requestId as string }),
    }),
  );

  const server = app.listen(env.PORT, env.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    logger.info({ url: env.APP_URL, port, driver: database.driver }, `${env.APP_NAME} listening on http://${env.HOST}:${port}`);
    console.log(`${env.APP_NAME} prêt sur http://localhost:${port}`);
  });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, "shutting down: finishing in-flight requests");
    server.close(async () => {
      expiryReminders.stop();
      await dispatcher.stop();
      const { closeDatabase } = await import("./app/db/client.server");
      await closeDatabase();
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(1), 15_000).unref();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
