// The server's side of the metrics, wired by server.ts in a few lines: `/metrics`
// behind its access rule, every request timed and labelled with its route id, traces when
// OTEL_EXPORTER_OTLP_ENDPOINT is set.
import type { Express, NextFunction, Request, Response } from "express";
import type { ServerBuild } from "react-router";
import type { Env } from "../env.server";
import { logger } from "../logger.server";
import { metricsAccess } from "./access-rules";
import { registerAppCaches } from "./app-caches.server";
import { createAppMetrics, type CacheStatsSource, type MetricsSources } from "./registry.server";
import { routedPathname, routeLabeler, type RouteLabel } from "./route-label.server";
import type { Tracing } from "./tracing.server";

export const METRICS_PATH = "/metrics";

export type InstalledMetrics = {
  registerCacheStats(name: string, source: CacheStatsSource): void;
  /** The build whose route ids label the requests (until then: `unmatched`). */
  setBuild(build: ServerBuild | (() => Promise<ServerBuild>)): void;
  stop(): Promise<void>;
};

export async function installMetrics(app: Express, options: { env: Pick<Env, "METRICS_TOKEN" | "OTEL_EXPORTER_OTLP_ENDPOINT" | "APP_NAME"> } & MetricsSources): Promise<InstalledMetrics> {
  const { env } = options;
  const metrics = createAppMetrics(options);
  registerAppCaches(metrics.registerCacheStats);
  let tracing: Tracing | undefined;
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) {
    const { startTracing } = await import("./tracing.server");
    tracing = await startTracing({ serviceName: "reseau-transmission" });
    logger.info({ endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT }, "OpenTelemetry traces exported");
  }
  let label: (pathname: string) => RouteLabel = () => ({ route: "unmatched", data: false });
  let reloadBuild: (() => void) | undefined;
  const labels = new WeakMap<ServerBuild["routes"], (pathname: string) => RouteLabel>();
  const labelWith = (build: ServerBuild) => {
    let found = labels.get(build.routes);
    if (!found) labels.set(build.routes, (found = routeLabeler(build.routes)));
    label = found;
  };

  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.path === METRICS_PATH) {
      const access = metricsAccess({ socketAddress: req.socket.remoteAddress, headers: req.headers, token: env.METRICS_TOKEN });
      // Refused as if it did not exist (like /dev/mailbox): a scanner learns nothing, not even
      // whether a token is set. A wrong token is logged, for the operator fixing a scraper.
      if (!access.allowed || (req.method !== "GET" && req.method !== "HEAD")) {
        if (!access.allowed && access.reason === "wrong-token") logger.warn({ address: req.socket.remoteAddress }, "/metrics: wrong bearer token");
        res.status(404).type("text/plain; charset=utf-8").send("Not Found");
        return;
      }
      metrics.text().then(
        (text) => {
          res.setHeader("Cache-Control", "no-store");
          res.type(metrics.contentType).send(text);
        },
        (error: unknown) => next(error),
      );
      return;
    }
    const start = performance.now();
    const done = metrics.requestStarted();
    const span = tracing?.startRequest(req.method, routedPathname(req.originalUrl));
    res.once("close", () => {
      done();
      const { route, data } = label(routedPathname(req.originalUrl));
      reloadBuild?.();
      metrics.observeRequest({ route, data, method: req.method, status: res.statusCode, seconds: (performance.now() - start) / 1000 });
      span?.end({ route, data, status: res.statusCode, requestId: res.locals.requestId as string | undefined });
    });
    if (span) span.run(next);
    else next();
  });

  return {
    registerCacheStats: metrics.registerCacheStats,
    setBuild(build) {
      if (typeof build === "function") {
        // Development: the build changes with each edit; the labels follow it a request late.
        reloadBuild = () => void build().then(labelWith, () => {});
        reloadBuild();
      } else labelWith(build);
    },
    async stop() {
      metrics.stop();
      await tracing?.stop();
    },
  };
}
