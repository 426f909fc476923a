import { matchRoutes, type ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import routeConfig from "../../routes";
import { routeTree } from "../private-responses.server";
import { routedPathname, routeLabeler, type RouteLabel } from "./route-label.server";

// A build manifest shaped like app/routes.ts: a root, pages, a layout with children, a resource
// route, a nested splat and the top-level 404 splat.
const entries: Array<{ id: string; parentId?: string; path?: string; index?: boolean }> = [
  { id: "root", path: "" },
  { id: "routes/public/landing", parentId: "root", index: true },
  { id: "routes/public/annuaire", parentId: "root", path: "annuaire" },
  { id: "routes/public/consultant", parentId: "root", path: "consultant/:slug" },
  { id: "routes/member/dashboard/layout", parentId: "root", path: "dashboard" },
  { id: "routes/member/dashboard/overview", parentId: "routes/member/dashboard/layout", index: true },
  { id: "routes/member/dashboard/conversation", parentId: "routes/member/dashboard/layout", path: "messages/:messageId" },
  { id: "routes/member/settings-export", parentId: "root", path: "parametres/export" },
  { id: "routes/api/uploads-file", parentId: "root", path: "uploads/*" },
  { id: "routes/api/robots", parentId: "root", path: "robots.txt" },
  { id: "routes/public/not-found", parentId: "root", path: "*" },
  // Declared after the dynamic and splat routes they must win over (ranking, not order).
  { id: "routes/public/consultant-new", parentId: "root", path: "consultant/nouveau" },
  { id: "routes/api/uploads-avatars", parentId: "root", path: "uploads/avatars" },
];
const routes = Object.fromEntries(entries.map((e) => [e.id, { ...e, module: {} }])) as unknown as ServerBuild["routes"];

describe("routeLabeler (decision 043)", () => {
  const label = routeLabeler(routes);
  it.each<[string, RouteLabel]>([
    ["/", { route: "routes/public/landing", data: false }],
    ["/annuaire", { route: "routes/public/annuaire", data: false }],
    ["/annuaire/", { route: "routes/public/annuaire", data: false }],
    // Each profile is the same route: the URL never becomes a label.
    ["/consultant/marie-dupont", { route: "routes/public/consultant", data: false }],
    ["/consultant/jean-martin", { route: "routes/public/consultant", data: false }],
    ["/consultant/nouveau", { route: "routes/public/consultant-new", data: false }],
    ["/uploads/avatars", { route: "routes/api/uploads-avatars", data: false }],
    ["/dashboard", { route: "routes/member/dashboard/overview", data: false }],
    ["/dashboard/messages/0b6a1f7e-5c1d-4c4e-9d7e-3c2b1a0f9e8d", { route: "routes/member/dashboard/conversation", data: false }],
    // The `.data` form of a route: its id and the flag.
    ["/annuaire.data", { route: "routes/public/annuaire", data: true }],
    ["/consultant/marie-dupont.data", { route: "routes/public/consultant", data: true }],
    ["/_root.data", { route: "routes/public/landing", data: true }],
    ["/dashboard/messages/42.data", { route: "routes/member/dashboard/conversation", data: true }],
    // Unknown paths: all under the 404 route's id.
    ["/wp-login.php/x", { route: "routes/public/not-found", data: false }],
    ["/n-importe-quoi", { route: "routes/public/not-found", data: false }],
    ["/a/b/c/d", { route: "routes/public/not-found", data: false }],
    ["/n-importe-quoi.data", { route: "routes/public/not-found", data: true }],
    // A route whose path has a dot stays itself; files and missing files are `static`.
    ["/robots.txt", { route: "routes/api/robots", data: false }],
    ["/uploads/avatars/a.webp", { route: "routes/api/uploads-file", data: false }],
    ["/favicon.svg", { route: "static", data: false }],
    ["/absent.php", { route: "static", data: false }],
    ["/assets/entry.client-AbC123.js", { route: "static", data: false }],
  ])("%s → %o", (path, expected) => {
    expect(label(path)).toEqual(expected);
  });

  it("keeps at most a bounded number of paths, and labels the same after starting again", () => {
    for (let i = 0; i < 2_500; i++) expect(label(`/consultant/m-${i}`).route).toBe("routes/public/consultant");
    expect(label("/annuaire")).toEqual({ route: "routes/public/annuaire", data: false });
  });

  it("reads the path as the router does (dot segments resolved, no query string)", () => {
    expect(routedPathname("/annuaire?q=paris")).toBe("/annuaire");
    expect(routedPathname("/uploads/../annuaire")).toBe("/annuaire");
    expect(routedPathname("//annuaire")).toBe("//annuaire");
  });
});

// The app's own routes (app/routes.ts) as the build's manifest names them.
type RouteNode = { path?: string; index?: boolean; file: string; children?: RouteNode[] };
function manifestOf(nodes: RouteNode[], parentId = "root", out: Record<string, unknown> = { root: { id: "root", path: "", module: {} } }) {
  for (const n of nodes) {
    const id = n.file.replace(/\.tsx?$/, "");
    out[id] = { id, parentId, path: n.path, index: n.index, module: {} };
    if (n.children) manifestOf(n.children, id, out);
  }
  return out as unknown as ServerBuild["routes"];
}

describe("routeLabeler agrees with React Router's matchRoutes on app/routes.ts", () => {
  const appRoutes = manifestOf(routeConfig as unknown as RouteNode[]);
  const label = routeLabeler(appRoutes);
  const tree = routeTree(appRoutes, undefined);
  const concrete = (nodes: RouteNode[], parent = ""): string[] =>
    nodes.flatMap((n) => {
      const path = n.index ? parent || "/" : `${parent === "/" ? "" : parent}/${(n.path ?? "").replace(/:[\w-]+/g, "abc-123").replace(/\*$/, "x/y")}`;
      return [path, `${path}/`, `${path}/extra`, ...(n.children ? concrete(n.children, path) : [])];
    });
  const paths = [...new Set([...concrete(routeConfig as unknown as RouteNode[]), "/", "/DASHBOARD/Profil", "/caf%C3%A9", "/%E0%A4%A", "/dashboard/dossiers/1/documents/2/x", "/api/auth", "/uploads"])];

  it.each(paths)("%s", (path) => {
    const matches = matchRoutes(tree, path);
    const expected = matches?.[matches.length - 1]?.route.id ?? "unmatched";
    const got = label(path).route;
    // Missing files under the 404 route are labelled `static` on purpose.
    expect(got === "static" ? "routes/public/not-found" : got).toBe(expected);
  });
});
