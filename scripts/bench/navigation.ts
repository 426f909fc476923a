// What a browser sends after its first document, computed as React Router's client computes it:
// the `.data` request of a client navigation (with `_routes=` when the layouts already loaded are
// not asked again), the revalidation after a form submission, and the fields of a page's form.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { matchRoutes, type RouteObject } from "react-router";

/** One route of the build's manifest (the fields the navigation needs). */
export type ManifestRoute = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  hasLoader: boolean;
  hasClientLoader: boolean;
  /** Its module's `shouldRevalidate` is app/lib/revalidation.ts's keepFrameOnNavigation. */
  keepsOnNavigation?: boolean;
};

/** The `.data` request React Router's client sends for `url` with every route's loader (a revalidation, single fetch). */
export function dataPath(url: string): string {
  const u = new URL(url, "http://x");
  const pathname = u.pathname === "/" ? "/_root" : u.pathname.replace(/\/$/, "");
  return `${pathname}.data${u.search}`;
}

function routeTree(routes: readonly ManifestRoute[]): RouteObject[] {
  const build = (parentId: string | undefined): RouteObject[] =>
    routes
      .filter((r) => r.parentId === parentId)
      .map((r) =>
        r.index
          ? { id: r.id, index: true, path: r.path, caseSensitive: r.caseSensitive }
          : { id: r.id, path: r.path, caseSensitive: r.caseSensitive, children: build(r.id) },
      );
  return build(undefined);
}

export type Navigation = {
  /** The request the browser sends, or null when no loader has to run. */
  url: string | null;
  /** The routes whose loaders run, in match order. */
  routeIds: string[];
};

/**
 * The `.data` request of a client navigation from `from` to `to` (paths with their search), as
 * React Router 7's single fetch builds it with the default revalidation: a route already shown
 * with the same path is not asked again unless the search changed; when some are left out the
 * others are listed in `_routes`. A frame that keeps its data on navigations (keepFrameOnNavigation)
 * is not asked again for another URL; other routes exporting their own `shouldRevalidate` are taken
 * as the default (the app's refine form submissions and dialogs, not these navigations).
 */
export function navigationData(routes: readonly ManifestRoute[], from: string, to: string): Navigation {
  const tree = routeTree(routes);
  const byId = new Map(routes.map((r) => [r.id, r]));
  const cur = new URL(from, "http://x");
  const next = new URL(to, "http://x");
  const currentMatches = matchRoutes(tree, cur.pathname) ?? [];
  const nextMatches = matchRoutes(tree, next.pathname);
  if (!nextMatches) throw new Error(`Aucune route pour ${to}`);
  const sameHref = cur.pathname + cur.search === next.pathname + next.search;
  const searchChanged = cur.search !== next.search;
  const load: string[] = [];
  let optedOut = false;
  nextMatches.forEach((m, i) => {
    const route = byId.get(m.route.id!)!;
    if (!route.hasLoader) return;
    const current = currentMatches[i];
    const isNew = !current || current.route.id !== m.route.id;
    const newInstance = !isNew && (current.pathname !== m.pathname || (route.path?.endsWith("*") === true && current.params["*"] !== m.params["*"]));
    // React Router asks `shouldRevalidate` only of routes already shown.
    const kept = route.keepsOnNavigation === true && !isNew && !sameHref;
    if (!kept && (isNew || newInstance || sameHref || searchChanged || route.hasClientLoader)) load.push(m.route.id!);
    else optedOut = true;
  });
  if (load.length === 0) return { url: null, routeIds: [] };
  const base = dataPath(to);
  if (!optedOut) return { url: base, routeIds: load };
  const u = new URL(base, "http://x");
  u.searchParams.set("_routes", load.join(","));
  return { url: u.pathname + u.search, routeIds: load };
}

/** The routes of the production build's client manifest (`build/client/assets/manifest-*.js`). */
export function readBuildRoutes(buildDir = "build"): ManifestRoute[] {
  const dir = path.join(buildDir, "client", "assets");
  for (const file of readdirSync(dir).filter((f) => /^manifest-[\w-]+\.js$/.test(f))) {
    const text = readFileSync(path.join(dir, file), "utf8");
    if (text.startsWith("window.__reactRouterManifest=")) return parseManifestRoutes(text).map((r) => ({ ...r, keepsOnNavigation: keepsOnNavigation(r.id) }));
  }
  throw new Error(`Manifeste des routes introuvable dans ${dir} : npm run build d'abord.`);
}

/** Whether the route's module (app/<id>.tsx or .ts) keeps its data on navigations. */
export function keepsOnNavigation(id: string): boolean {
  for (const ext of [".tsx", ".ts"]) {
    const file = path.join("app", `${id}${ext}`);
    if (existsSync(file)) return /^export const shouldRevalidate = keepFrameOnNavigation;$/m.test(readFileSync(file, "utf8"));
  }
  return false;
}

/** The routes of a client manifest file's text (`window.__reactRouterManifest={…}`). */
export function parseManifestRoutes(text: string): ManifestRoute[] {
  const json = text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1);
  const manifest = JSON.parse(json) as { routes: Record<string, ManifestRoute> };
  return Object.values(manifest.routes).map((r) => ({
    id: r.id,
    parentId: r.parentId,
    path: r.path,
    index: r.index,
    caseSensitive: r.caseSensitive,
    hasLoader: r.hasLoader,
    hasClientLoader: r.hasClientLoader,
  }));
}

const decode = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39|#x27|#x2F);/g, (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'", "#x2F": "/" })[e] ?? "");

function attr(tag: string, name: string): string | null {
  const m = new RegExp(`\\s${name}(?:="([^"]*)"|='([^']*)'|(?=[\\s/>]))`, "i").exec(tag);
  if (!m) return null;
  return decode(m[1] ?? m[2] ?? "");
}

/**
 * The fields a browser would submit from the page's form that posts `intent` (the hidden
 * `intent` input, or a submit button named `intent`): text and hidden inputs, checked boxes,
 * selected options and text areas, with the values the server rendered.
 */
export function formFields(html: string, intent: string): URLSearchParams {
  const forms = html.match(/<form\b[\s\S]*?<\/form>/gi) ?? [];
  const wanted = new RegExp(`name="intent"[^>]*value="${intent}"|value="${intent}"[^>]*name="intent"`);
  const form = forms.find((f) => wanted.test(f));
  if (!form) throw new Error(`Aucun formulaire « ${intent} » dans la page.`);
  const fields = new URLSearchParams();
  let intentSet = false;
  const tags = form.match(/<input\b[^>]*>|<button\b[^>]*>|<select\b[^>]*>[\s\S]*?<\/select>|<textarea\b[^>]*>[\s\S]*?<\/textarea>/gi) ?? [];
  for (const tag of tags) {
    const open = tag.slice(0, tag.indexOf(">") + 1);
    const name = attr(open, "name");
    if (!name || attr(open, "disabled") !== null) continue;
    const kind = open.slice(1, open.search(/[\s>]/)).toLowerCase();
    if (kind === "button") {
      if (name === "intent" && attr(open, "value") === intent && !intentSet) {
        fields.append(name, intent);
        intentSet = true;
      }
      continue;
    }
    if (kind === "textarea") {
      fields.append(name, decode(tag.slice(open.length, tag.lastIndexOf("</"))));
      continue;
    }
    if (kind === "select") {
      const options = tag.match(/<option\b[^>]*>[\s\S]*?<\/option>/gi) ?? [];
      const selected = options.filter((o) => attr(o.slice(0, o.indexOf(">") + 1), "selected") !== null);
      const chosen = selected.length ? selected : options.slice(0, 1);
      for (const o of chosen) {
        const oo = o.slice(0, o.indexOf(">") + 1);
        fields.append(name, attr(oo, "value") ?? decode(o.slice(oo.length, o.lastIndexOf("</")).trim()));
      }
      continue;
    }
    const type = (attr(open, "type") ?? "text").toLowerCase();
    if (["submit", "button", "image", "reset", "file"].includes(type)) continue;
    if ((type === "checkbox" || type === "radio") && attr(open, "checked") === null) continue;
    if (name === "intent") {
      if (intentSet) continue;
      intentSet = true;
    }
    fields.append(name, attr(open, "value") ?? (type === "checkbox" || type === "radio" ? "on" : ""));
  }
  return fields;
}
