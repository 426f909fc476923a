// Module hooks of react-router-production.mjs (they run on Node's hooks thread).
import { Buffer } from "node:buffer";
const ENTRY = /\/node_modules\/react-router\/dist\/development\/(index|dom-export)\.(m?js)$/;
const PRODUCTION_CHUNK = /\/node_modules\/react-router\/dist\/production\/chunk-[\w-]+\.mjs$/;

/** @type {import("node:module").ResolveHook} */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const m = ENTRY.exec(resolved.url);
  return m ? { ...resolved, url: resolved.url.replace("/dist/development/", "/dist/production/") } : resolved;
}

/**
 * The document request's loader data, encoded for the browser (turbo-stream), as it is built
 * when React Router renders the page: `serverHandoffStream: encodeViaTurboStream(state, …)`.
 * The first (the page's own) is made lazy, the others stay as they are.
 */
const EAGER_HANDOFF = /serverHandoffStream: (encodeViaTurboStream\(\s*state,\s*request\.signal,\s*build\.entry\.module\.streamTimeout,\s*serverMode\s*\))/;

/**
 * React Router encodes a document's loader data for the browser before it calls the entry's
 * handler, so a page the render cache serves (decision 025) paid for an encoding it never sent:
 * a sixth of an internal-directory hit (bench/README.md, ninth pass). Encoded when the render
 * first reads it instead (decision 029). Exported for the test, which checks that the installed
 * React Router still holds the expression.
 */
export function lazyHandoff(source) {
  return source.replace(
    EAGER_HANDOFF,
    (_m, call) =>
      `get serverHandoffStream() { const value = ${call}; ` +
      `Object.defineProperty(this, "serverHandoffStream", { value, writable: true, enumerable: true, configurable: true }); return value; }`,
  );
}

/**
 * `<Scripts>` writes, into every document, the part of the route manifest the browser needs first:
 * `JSON.stringify(getPartialManifest(manifest, router), null, 2)`, which matches each ancestor of
 * the URL against every route branch (~100 here) and serialises the result: 5 % of a public
 * profile's render (bench/README.md, tenth pass). That text depends only on the build's manifest,
 * the basename, the ids of the routes matched and the URL's ancestors (the path without its last
 * segment), so it is kept by those (decision 032), at most 2 000 texts per build.
 */
const PARTIAL_MANIFEST_JSON = /JSON\.stringify\(\s*getPartialManifest\(manifest, router\),\s*null,\s*2\s*\)/;

const PARTIAL_MANIFEST_HELPER = `
// Added by scripts/runtime/react-router-production-hooks.mjs (decision 032).
var __rtPartialManifests = new WeakMap();
function __rtPartialManifestJson(manifest, router) {
  var byKey = __rtPartialManifests.get(manifest);
  if (!byKey) { byKey = new Map(); __rtPartialManifests.set(manifest, byKey); }
  var key = (router.basename || "/") + "\\n" + router.state.location.pathname.split("/").filter(Boolean).slice(0, -1).join("/") +
    "\\n" + router.state.matches.map(function (m) { return m.route.id; }).join("\\n");
  var json = byKey.get(key);
  if (json === undefined) {
    json = JSON.stringify(getPartialManifest(manifest, router), null, 2);
    if (byKey.size >= 2000) byKey.delete(byKey.keys().next().value);
    byKey.set(key, json);
  }
  return json;
}
`;

/** React Router's chunk source with the partial manifest's text kept (decision 032). Exported for the test. */
export function keptPartialManifest(source) {
  if (!PARTIAL_MANIFEST_JSON.test(source)) return source;
  return source.replace(PARTIAL_MANIFEST_JSON, "__rtPartialManifestJson(manifest, router)") + PARTIAL_MANIFEST_HELPER;
}

/**
 * `<ServerRouter>` builds React Router's route tables again for every document: the server routes
 * from the build's manifest (`createServerRoutes`), then the data routes the static router renders
 * from (`createStaticRouter` → `convertRoutesToDataRoutes`), ~100 routes each time: 7 % of a
 * page with no data of its own (bench/README.md, twelfth pass). Both depend only on the build:
 * its manifest's routes, its route modules, its `future` flags and SPA mode. They are kept per
 * build (decision 033). Exported for the test.
 */
const SERVER_ROUTES_CALL = /let routes = createServerRoutes\(\s*manifest\.routes,\s*routeModules,\s*context\.future,\s*context\.isSpaMode\s*\);/;

const SERVER_ROUTES_HELPER = `
// Added by scripts/runtime/react-router-production-hooks.mjs (decision 033).
var __rtServerRouteTables = new WeakMap();
function __rtServerRoutes(manifestRoutes, routeModules, future, isSpaMode) {
  var kept = __rtServerRouteTables.get(manifestRoutes);
  if (kept && kept.future === future && kept.isSpaMode === isSpaMode && __rtSameModules(kept.routeModules, routeModules)) return kept.routes;
  var routes = createServerRoutes(manifestRoutes, routeModules, future, isSpaMode);
  __rtServerRouteTables.set(manifestRoutes, { routes: routes, routeModules: Object.assign({}, routeModules), future: future, isSpaMode: isSpaMode });
  return routes;
}
function __rtSameModules(kept, current) {
  var ids = Object.keys(current);
  if (ids.length !== Object.keys(kept).length) return false;
  for (var i = 0; i < ids.length; i++) if (kept[ids[i]] !== current[ids[i]]) return false;
  return true;
}
`;

const DATA_ROUTES_START = /(function createStaticRouter\(routes, context, opts = \{\}\) \{)\s*let manifest = \{\};\s*let dataRoutes = convertRoutesToDataRoutes\(\s*routes,\s*mapRouteProperties,\s*void 0,\s*manifest\s*\);/;

const DATA_ROUTES_HELPER = `
// Added by scripts/runtime/react-router-production-hooks.mjs (decision 033).
var __rtDataRouteTables = new WeakMap();
function __rtDataRoutes(routes) {
  var kept = __rtDataRouteTables.get(routes);
  if (!kept) {
    var manifest = {};
    kept = { manifest: manifest, dataRoutes: convertRoutesToDataRoutes(routes, mapRouteProperties, void 0, manifest) };
    __rtDataRouteTables.set(routes, kept);
  }
  return kept;
}
`;

/** React Router's chunk sources with the route tables of `<ServerRouter>` kept per build (decision 033). Exported for the test. */
export function keptRouteTables(source) {
  let out = source;
  if (SERVER_ROUTES_CALL.test(out)) {
    out = out.replace(SERVER_ROUTES_CALL, "let routes = __rtServerRoutes(manifest.routes, routeModules, context.future, context.isSpaMode);") + SERVER_ROUTES_HELPER;
  }
  if (DATA_ROUTES_START.test(out)) {
    out = out.replace(DATA_ROUTES_START, (_m, head) => `${head}\n  let { manifest, dataRoutes } = __rtDataRoutes(routes);`) + DATA_ROUTES_HELPER;
  }
  return out;
}

/** @type {import("node:module").LoadHook} */
export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (!PRODUCTION_CHUNK.test(url) || loaded.format !== "module") return loaded;
  const source = typeof loaded.source === "string" ? loaded.source : Buffer.from(loaded.source).toString("utf8");
  const handoff = source.includes("serverHandoffStream: encodeViaTurboStream(");
  const scripts = source.includes("getPartialManifest(manifest, router)");
  const tables = source.includes("createServerRoutes(") || source.includes("function createStaticRouter(");
  if (!handoff && !scripts && !tables) return loaded;
  return { ...loaded, source: keptRouteTables(keptPartialManifest(lazyHandoff(source))) };
}
