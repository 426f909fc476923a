// Two guards of the server in front of React Router, both wired in server.ts.
//
// - privateResponses: every response to a signed-in request (documents, `.data`, resource
//   routes, the server's own refusals) or that sets a cookie carries the Cache-Control of
//   app/lib/private-cache.ts, whatever the route said.
// - resourceDataRedirect: a GET of a resource route's `.data` form (`/parametres/export.data`)
//   would run its loader and send the file's bytes inside React Router's data encoding, without
//   the route's own headers (Content-Disposition, Cache-Control). The client router never needs
//   it: it is answered with the client router's "reload the document" redirect to the route's
//   own URL, without running the loader, so a navigation to it still downloads the real file.
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { matchPath, matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { hasSessionCookie } from "./session-cookie.server";
import { privateCacheControl } from "./private-cache";

export function privateResponses(req: Request, res: Response, next: NextFunction): void {
  const signedIn = hasSessionCookie(req.headers.cookie ?? null);
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
  res.writeHead = ((...args: unknown[]) => {
    if (!res.headersSent) {
      const given = res.getHeader("cache-control");
      const current = given === undefined ? null : Array.isArray(given) ? given.join(", ") : String(given);
      const wanted = privateCacheControl({ current, signedIn, setsCookie: res.hasHeader("set-cookie") });
      if (wanted !== null && wanted !== current) res.setHeader("Cache-Control", wanted);
    }
    return writeHead(...args);
  }) as typeof res.writeHead;
  next();
}

export type BuildRoutes = ServerBuild["routes"];
export type Matchable = RouteObject & { id: string };

/** React Router's route tree from the build's flat manifest (ids, paths, index flags). */
export function routeTree(routes: BuildRoutes, parentId: string | undefined): Matchable[] {
  return Object.values(routes)
    .filter((r) => r !== undefined && r.parentId === parentId)
    .map((r) =>
      r!.index
        ? { id: r!.id, index: true, path: r!.path, caseSensitive: r!.caseSensitive }
        : { id: r!.id, path: r!.path, caseSensitive: r!.caseSensitive, children: routeTree(routes, r!.id) },
    );
}

/** The path a `.data` URL stands for, as React Router reads it (`/_root.data` is `/`). */
export function dataRequestPath(pathname: string): string | null {
  if (!pathname.endsWith(".data")) return null;
  if (pathname === "/_root.data") return "/";
  const path = pathname.slice(0, -".data".length);
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

const isResourceModule = (module: NonNullable<BuildRoutes[string]>["module"]) => module.default == null && module.ErrorBoundary == null;

/** Whether `path` leads to a resource route (no component, no error boundary: React Router's own test). */
export function isResourceRoutePath(routes: BuildRoutes, tree: Matchable[], path: string): boolean {
  const matches = matchRoutes(tree, path);
  const leaf = matches?.[matches.length - 1]?.route as Matchable | undefined;
  const module = leaf ? routes[leaf.id]?.module : undefined;
  return Boolean(module && isResourceModule(module));
}

type ResourcePattern = { path: string; caseSensitive: boolean };

/**
 * isResourceRoutePath for one build, cheap for the pages: matchRoutes flattens and ranks the whole
 * tree on every call, so it runs only for a path that one of the resource routes' own patterns
 * matches (React Router's matchPath, looked up by the path's first segment).
 */
export function resourceRouteMatcher(routes: BuildRoutes): (path: string) => boolean {
  const tree = routeTree(routes, undefined);
  const fullPath = (id: string): string => {
    const parts: string[] = [];
    for (let r = routes[id]; r; r = r.parentId ? routes[r.parentId] : undefined) if (r.path) parts.unshift(r.path);
    return `/${parts.join("/")}`.replace(/\/\/+/g, "/");
  };
  const byFirstSegment = new Map<string, ResourcePattern[]>();
  const anyFirstSegment: ResourcePattern[] = [];
  for (const route of Object.values(routes)) {
    if (!route || !isResourceModule(route.module)) continue;
    const pattern = { path: fullPath(route.id), caseSensitive: route.caseSensitive === true };
    const first = pattern.path.split("/")[1] ?? "";
    if (first === "" || /^[:*]|\?$/.test(first)) anyFirstSegment.push(pattern);
    else byFirstSegment.set(first.toLowerCase(), [...(byFirstSegment.get(first.toLowerCase()) ?? []), pattern]);
  }
  return (path: string) => {
    let decoded: string;
    try {
      decoded = path.split("/").map((segment) => decodeURIComponent(segment).replace(/\//g, "%2F")).join("/");
    } catch {
      return isResourceRoutePath(routes, tree, path);
    }
    const candidates = [...(byFirstSegment.get((decoded.split("/")[1] ?? "").toLowerCase()) ?? []), ...anyFirstSegment];
    if (!candidates.some((pattern) => matchPath({ ...pattern, end: true }, decoded))) return false;
    return isResourceRoutePath(routes, tree, path);
  };
}

export function resourceDataRedirect(build: ServerBuild | (() => Promise<ServerBuild>)): RequestHandler {
  const matchers = new WeakMap<BuildRoutes, (path: string) => boolean>();
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    // Built as @react-router/express builds it (dot segments resolved, `//` not a host).
    let url: URL;
    try {
      url = new URL(`http://x${req.originalUrl}`);
    } catch {
      return next();
    }
    const path = dataRequestPath(url.pathname);
    if (path === null) return next();
    void Promise.resolve(typeof build === "function" ? build() : build).then((b) => {
      let isResource = matchers.get(b.routes);
      if (!isResource) matchers.set(b.routes, (isResource = resourceRouteMatcher(b.routes)));
      if (!isResource(path)) return next();
      url.searchParams.delete("_routes");
      const search = url.searchParams.toString();
      res.status(204);
      res.setHeader("X-Remix-Response", "yes");
      res.setHeader("X-Remix-Redirect", `${path}${search ? `?${search}` : ""}`);
      res.setHeader("X-Remix-Status", "302");
      res.setHeader("X-Remix-Reload-Document", "true");
      res.setHeader("Cache-Control", "no-store");
      res.end();
    }, next);
  };
}
