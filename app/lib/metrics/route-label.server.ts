// The label of a request in the HTTP metrics: the id of the React Router route that serves its
// path (`routes/public/annuaire`), never the URL itself, so that the series stay bounded.
//
// React Router's matchRoutes() flattens and ranks the whole route tree on every call: the branches are flattened, ranked and
// compiled once per build here, with React Router's own ranking rules (flattenRoutes,
// computeScore, compareIndexes in its router), and route-label.server.test.ts checks the result
// against matchRoutes.
import { dataRequestPath, routeTree, type BuildRoutes, type Matchable } from "../private-responses.server";

export type RouteLabel = {
  /** A route id; `static` for the build's files; `unmatched` when no route takes the path. */
  route: string;
  /** The `.data` form of the route (client navigations and form submissions). */
  data: boolean;
};

/** Paths whose labels are kept; past it the table starts again (a scan of random paths). */
const KEPT_PATHS = 2_000;

type Branch = { path: string; score: number; indexes: number[]; id: string; matcher: RegExp; topLevelSplat: boolean };

const joinPaths = (parts: string[]) => parts.join("/").replace(/\/\/+/g, "/");

/** React Router's computeScore. */
function computeScore(path: string, index: boolean | undefined): number {
  const segments = path.split("/");
  let score = segments.length;
  if (segments.some((s) => s === "*")) score -= 2;
  if (index) score += 2;
  for (const s of segments) {
    if (s === "*") continue;
    score += /^:[\w-]+$/.test(s) ? 3 : s === "" ? 1 : 10;
  }
  return score;
}

/** React Router's compilePath for a whole branch (end = true; no optional segments here). */
function compile(path: string, caseSensitive: boolean): RegExp {
  let source =
    "^" +
    path
      .replace(/\/*\*?$/, "")
      .replace(/^\/*/, "/")
      .replace(/[\\.*+^${}|()[\]]/g, "\\$&")
      .replace(/\/:([\w-]+)/g, "/([^\\/]+)");
  if (path.endsWith("*")) source += path === "*" || path === "/*" ? "(.*)$" : "(?:\\/(.+)|\\/*)$";
  else source += "\\/*$";
  return new RegExp(source, caseSensitive ? undefined : "i");
}

function flatten(routes: Matchable[], parentPath: string, parentIndexes: number[], out: Branch[]): Branch[] {
  routes.forEach((route, i) => {
    const path = joinPaths([parentPath, route.path ?? ""]);
    const indexes = [...parentIndexes, i];
    if (route.children?.length) flatten(route.children as Matchable[], path, indexes, out);
    if (route.path == null && !route.index) return;
    out.push({
      path,
      score: computeScore(path, route.index),
      indexes,
      id: route.id,
      matcher: compile(path, route.caseSensitive === true),
      topLevelSplat: route.path === "*" && (parentPath === "" || parentPath === "/"),
    });
  });
  return out;
}

function compareIndexes(a: number[], b: number[]): number {
  const siblings = a.length === b.length && a.slice(0, -1).every((n, i) => n === b[i]);
  return siblings ? a[a.length - 1]! - b[b.length - 1]! : 0;
}

function decodePath(value: string): string {
  try {
    return value
      .split("/")
      .map((v) => decodeURIComponent(v).replace(/\//g, "%2F"))
      .join("/");
  } catch {
    return value;
  }
}

function hasFileExtension(pathname: string): boolean {
  const last = pathname.slice(pathname.lastIndexOf("/") + 1);
  return last.lastIndexOf(".") > 0;
}

/** Labels paths for one build's routes (`pathname` as the router sees it, no query string). */
export function routeLabeler(routes: BuildRoutes): (pathname: string) => RouteLabel {
  const branches = flatten(routeTree(routes, undefined), "", [], []);
  branches.sort((a, b) => (a.score !== b.score ? b.score - a.score : compareIndexes(a.indexes, b.indexes)));
  const kept = new Map<string, RouteLabel>();
  const label = (pathname: string): RouteLabel => {
    if (pathname.startsWith("/assets/")) return { route: "static", data: false };
    const dataPath = dataRequestPath(pathname);
    const decoded = decodePath(dataPath ?? pathname);
    const branch = branches.find((b) => b.matcher.test(decoded));
    if (!branch) return { route: "unmatched", data: dataPath !== null };
    // The top-level splat is the 404 page: a missing file (`/absent.svg`) is labelled as the files
    // the server serves itself (favicon.svg…); other unknown paths stay under the 404 route's id.
    if (dataPath === null && branch.topLevelSplat && hasFileExtension(pathname)) return { route: "static", data: false };
    return { route: branch.id, data: dataPath !== null };
  };
  return (pathname) => {
    let found = kept.get(pathname);
    if (!found) {
      if (kept.size >= KEPT_PATHS) kept.clear();
      found = label(pathname);
      kept.set(pathname, found);
    }
    return found;
  };
}

/** The path of a request line as the router reads it (dot segments resolved, no query string). */
export function routedPathname(originalUrl: string): string {
  try {
    return new URL(`http://x${originalUrl}`).pathname;
  } catch {
    return "/";
  }
}
