import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import routeConfig from "../routes";
import { isResourceRoutePath, resourceRouteMatcher, routeTree } from "./private-responses.server";

// The app's own routes (app/routes.ts) as the build's manifest names them, with a module that is a
// resource route (no component, no error boundary) where `resource` says so.
type RouteNode = { path?: string; index?: boolean; file: string; children?: RouteNode[] };
function manifestOf(nodes: RouteNode[], resource: (id: string) => boolean, parentId = "root", out: Record<string, unknown> = {}) {
  out.root ??= { id: "root", path: "", module: { default: () => null } };
  for (const n of nodes) {
    const id = n.file.replace(/\.tsx?$/, "");
    out[id] = { id, parentId, path: n.path, index: n.index, module: resource(id) ? {} : { default: () => null } };
    if (n.children) manifestOf(n.children, resource, id, out);
  }
  return out as ServerBuild["routes"];
}

const concrete = (nodes: RouteNode[], parent = ""): string[] =>
  nodes.flatMap((n) => {
    const path = n.index ? parent || "/" : `${parent === "/" ? "" : parent}/${(n.path ?? "").replace(/:[\w-]+/g, "abc-123").replace(/\*$/, "x/y")}`;
    return [path, `${path}/extra`, path.toUpperCase(), ...(n.children ? concrete(n.children, path) : [])];
  });
const paths = [
  ...new Set([
    ...concrete(routeConfig as unknown as RouteNode[]),
    "/",
    "/%64ashboard/dossiers/1/archive",
    "/dashboard/dossiers/1/%61rchive",
    "/%E0%A4%A",
    "/api/auth",
    "/api/auth/session",
    "/uploads",
    "/uploads/a/b.webp",
    "/n-importe-quoi",
  ]),
];

// Two markings: the app's resource routes as they are (the API, files and exports), and every
// other route of the manifest, so that pages and resource routes sit side by side everywhere.
const actual = (id: string) => id.startsWith("routes/api/") || /(document|archive|export|pdf|csv|emails|evidence|undertakings|certificate|attachment|preview|mailbox-json)$/.test(id);
const ids = Object.keys(manifestOf(routeConfig as unknown as RouteNode[], () => false));
const everyOther = (id: string) => ids.indexOf(id) % 2 === 1;

describe.each([
  ["the app's resource routes", actual],
  ["every other route", everyOther],
])("resourceRouteMatcher agrees with matchRoutes on app/routes.ts (%s)", (_name, resource) => {
  const routes = manifestOf(routeConfig as unknown as RouteNode[], resource);
  const tree = routeTree(routes, undefined);
  const matcher = resourceRouteMatcher(routes);
  it("finds resource routes at all (the marking is not empty)", () => {
    expect(paths.filter((p) => isResourceRoutePath(routes, tree, p)).length).toBeGreaterThan(5);
  });
  it.each(paths)("%s", (path) => {
    expect(matcher(path)).toBe(isResourceRoutePath(routes, tree, path));
  });
});
