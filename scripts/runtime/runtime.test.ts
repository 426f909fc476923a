import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { keptPartialManifest, keptRouteTables, lazyHandoff } from "./react-router-production-hooks.mjs";
import { productionServerArgs, serverNodeArgs } from "./server-args";

const root = path.resolve(import.meta.dirname, "../..");

/** A module's code run by Node in the project, with the production runtime's hooks or without; its output. */
const runProbe = (probe: string, withHook: boolean) =>
  execFileSync(process.execPath, [...(withHook ? ["--import", "./scripts/runtime/react-router-production.mjs"] : []), "--input-type=module", "-e", probe], {
    cwd: root,
    encoding: "utf8",
  }).trim();

/** The texts of the production chunks React Router's installed entry imports. */
function installedChunks(): string[] {
  const entry = fileURLToPath(runProbe('console.log(import.meta.resolve("react-router"))', false));
  const dir = path.join(path.dirname(entry), "../production");
  return [...readFileSync(path.join(dir, "index.mjs"), "utf8").matchAll(/from "\.\/(chunk-[\w-]+\.mjs)"/g)].map((m) => readFileSync(path.join(dir, m[1]!), "utf8"));
}

/**
 * A module for `runProbe`: a small build (a layout, a nested page with a parameter, a page of two
 * segments, a loader's 403, an error boundary, a link) served by React Router's request handler
 * and rendered as app/entry.server.tsx renders (the whole document, the loader data streamed into
 * it); for each of `urls`, prints `report`, an expression of `url`, `res` and `html`.
 */
const smallBuildProbe = (urls: string[], report: string) => `const React = await import("react");
const { renderToPipeableStream } = await import("react-dom/server");
const { PassThrough } = await import("node:stream");
const { createRequestHandler, ServerRouter, Scripts, Outlet, Link, useLoaderData, useRouteError, isRouteErrorResponse } = await import("react-router");
const h = React.createElement;
const page = (name) => ({ default: () => h("p", null, name + " " + JSON.stringify(useLoaderData()), h(Link, { to: "../b/c" }, "c")), loader: ({ params }) => ({ name, id: params.id ?? null }) });
const build = {
  routes: {
    root: { id: "root", path: "", module: {
      default: () => h("html", null, h("body", null, h(Outlet), h(Scripts))),
      ErrorBoundary: () => { const e = useRouteError(); return h("html", null, h("body", null, h("h1", null, isRouteErrorResponse(e) ? e.status : "error"), h(Scripts))); },
    } },
    a: { id: "a", parentId: "root", path: "a", module: { default: () => h("main", null, h(Outlet)) } },
    item: { id: "item", parentId: "a", path: ":id", module: page("item") },
    other: { id: "other", parentId: "root", path: "b/c", module: page("other") },
    broken: { id: "broken", parentId: "root", path: "broken", module: { default: () => null, loader: () => { throw new Response("no", { status: 403 }); } } },
  },
  // As app/entry.server.tsx renders: the whole document, the loader data streamed into it.
  entry: { module: { default: (request, status, headers, context) => new Promise((resolve, reject) => {
    const { pipe } = renderToPipeableStream(h(ServerRouter, { context, url: request.url }), {
      onAllReady() {
        const body = new PassThrough();
        const chunks = [];
        body.on("data", (c) => chunks.push(c));
        body.on("end", () => resolve(new Response(Buffer.concat(chunks).toString(), { status, headers })));
        pipe(body);
      },
      onShellError: reject,
    });
  }) } },
  assets: {
    entry: { module: "/e.js", imports: [] },
    routes: {
      root: { id: "root", path: "", module: "/root.js", hasLoader: false, hasErrorBoundary: true },
      a: { id: "a", parentId: "root", path: "a", module: "/a.js", hasLoader: false },
      item: { id: "item", parentId: "a", path: ":id", module: "/item.js", hasLoader: true },
      other: { id: "other", parentId: "root", path: "b/c", module: "/other.js", hasLoader: true },
      broken: { id: "broken", parentId: "root", path: "broken", module: "/broken.js", hasLoader: true },
    },
    url: "/m.js", version: "1",
  },
  future: {}, basename: "/", publicPath: "/", assetsBuildDirectory: "x", ssr: true, prerender: [], routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
};
const handler = createRequestHandler(build, "production");
for (const url of ${JSON.stringify(urls)}) {
  const res = await handler(new Request("http://localhost" + url));
  const html = await res.text();
  console.log(${report});
}
`;

describe("production server's Node options", () => {
  it("are read from the serve script", () => {
    expect(serverNodeArgs("NODE_ENV=production exec node --a=1 --import x server.ts")).toEqual(["--a=1", "--import", "x"]);
    expect(() => serverNodeArgs("tsx other.ts")).toThrow();
    const args = productionServerArgs(root);
    expect(args.at(-1)).toBe("server.ts");
    expect(args).toContain("--max-semi-space-size=64");
    expect(args.join(" ")).toContain("--import ./scripts/runtime/react-router-production.mjs --import tsx");
  });
});

describe("React Router's production files on the server (decision 024)", () => {
  const resolveWithHook = (code: string) =>
    execFileSync(process.execPath, ["--import", "./scripts/runtime/react-router-production.mjs", "--input-type=module", "-e", code], { cwd: root, encoding: "utf8" }).trim();

  it("resolves the package's entry points to dist/production, the other packages as they are", () => {
    const out = resolveWithHook(
      'for (const s of ["react-router", "react-router/dom", "@react-router/node", "react"]) console.log(import.meta.resolve(s));',
    ).split("\n");
    expect(out[0]).toMatch(/\/react-router\/dist\/production\/index\.mjs$/);
    expect(out[1]).toMatch(/\/react-router\/dist\/production\/dom-export\.mjs$/);
    expect(out[2]).toMatch(/\/@react-router\/node\/dist\/index\.mjs$/);
    expect(out[3]).toMatch(/\/react\/index\.js$/);
  });

  it("loads one copy, without the development warnings", () => {
    const out = resolveWithHook(
      'const rr = await import("react-router"); const express = await import("@react-router/express"); console.log(typeof rr.ServerRouter, typeof express.createRequestHandler);',
    );
    expect(out).toBe("function function");
    const entry = fileURLToPath(resolveWithHook('console.log(import.meta.resolve("react-router"))'));
    // The flag is defined in one of the chunks the entry imports.
    const chunks = [...readFileSync(entry, "utf8").matchAll(/from "\.\/(chunk-[\w-]+\.mjs)"/g)].map((m) => m[1]!);
    const definitions = chunks.map((c) => /var ENABLE_DEV_WARNINGS = (\w+);/.exec(readFileSync(path.join(path.dirname(entry), c), "utf8"))?.[1]).filter(Boolean);
    expect(definitions).toEqual(["false"]);
  });
});

describe("the document's loader data is encoded for the browser when the render reads it (decision 029)", () => {
  // A request handler over a one-route build whose entry reports how the handoff stream is held.
  const probe = `
    const { createRequestHandler } = await import("react-router");
    const build = {
      routes: { root: { id: "root", path: "", module: { default: () => null, loader: () => ({ a: 1 }) } } },
      entry: { module: { default: async (request, status, headers, context) => {
        const held = typeof Object.getOwnPropertyDescriptor(context, "serverHandoffStream").get === "function" ? "lazy" : "eager";
        const reader = context.serverHandoffStream.getReader();
        let text = "";
        for (let r = await reader.read(); !r.done; r = await reader.read()) text += new TextDecoder().decode(r.value);
        return new Response(held + " " + text.trim());
      } } },
      assets: { entry: { module: "/e.js", imports: [] }, routes: { root: { id: "root", path: "", module: "/r.js", hasLoader: true } }, url: "/m.js", version: "1" },
      future: {}, basename: "/", publicPath: "/", assetsBuildDirectory: "x", ssr: true, prerender: [], routeDiscovery: { mode: "initial" },
    };
    const res = await createRequestHandler(build, "production")(new Request("http://localhost/"));
    console.log(res.status, await res.text());`;
  const run = (withHook: boolean) => runProbe(probe, withHook);

  it("is lazy on the production server, and still encodes the same data when read", () => {
    const lazy = run(true);
    const eager = run(false);
    expect(lazy).toMatch(/^200 lazy \[/);
    expect(eager).toMatch(/^200 eager \[/);
    expect(lazy.slice("200 lazy ".length)).toBe(eager.slice("200 eager ".length));
    expect(lazy).toContain('"a",1');
  });

  it("rewrites the one expression React Router's installed chunk holds, and nothing else", () => {
    const chunks = installedChunks();
    const holders = chunks.filter((c) => c.includes("serverHandoffStream: encodeViaTurboStream("));
    expect(holders).toHaveLength(1);
    const rewritten = lazyHandoff(holders[0]!);
    expect(rewritten.match(/get serverHandoffStream\(\)/g)).toHaveLength(1);
    // The error path's second render keeps its own eager encoding.
    expect(rewritten.match(/serverHandoffStream: encodeViaTurboStream\(\s*state2/g)).toHaveLength(1);
    expect(lazyHandoff("const x = 1;")).toBe("const x = 1;");
  });
});

describe("the partial route manifest of each document is kept by what it depends on (decision 032)", () => {
  type Router = { basename: string; state: { location: { pathname: string }; matches: { route: { id: string } }[] } };
  const router = (pathname: string, ids: string[], basename = "/"): Router => ({ basename, state: { location: { pathname }, matches: ids.map((id) => ({ route: { id } })) } });
  // A stand-in for React Router's function, counting its calls, and its call site in <Scripts>.
  const load = () =>
    new Function(
      `${keptPartialManifest(`let built = 0;
function getPartialManifest(manifest, router) { built++; return { routes: router.state.matches.map((m) => m.route.id), n: built }; }
function render(manifest, router) { return JSON.stringify(getPartialManifest(manifest, router), null, 2); }`)}
return { render, built: () => built };`,
    )() as { render: (manifest: object, router: Router) => string; built: () => number };

  it("computes the text once per manifest, basename, routes matched and ancestors of the URL", () => {
    const { render, built } = load();
    const manifest = {};
    const first = render(manifest, router("/consultant/alice", ["root", "profile"]));
    expect(JSON.parse(first)).toEqual({ routes: ["root", "profile"], n: 1 });
    // Another profile: same ancestors, same routes.
    expect(render(manifest, router("/consultant/bob", ["root", "profile"]))).toBe(first);
    expect(built()).toBe(1);
    render(manifest, router("/consultant/bob/x", ["root", "profile"]));
    render(manifest, router("/consultant/bob", ["root", "other"]));
    render(manifest, router("/consultant/bob", ["root", "profile"], "/base"));
    render({}, router("/consultant/bob", ["root", "profile"]));
    expect(built()).toBe(5);
    // A trailing slash is the ancestors' business too: "/a/b/" has the ancestors of "/a/b".
    render(manifest, router("/consultant/carol/", ["root", "profile"]));
    expect(built()).toBe(5);
  });

  it("rewrites the one call site of the installed chunk, and renders the same documents", () => {
    const chunks = installedChunks();
    const holders = chunks.filter((c) => c.includes("getPartialManifest(manifest, router)"));
    expect(holders).toHaveLength(1);
    const rewritten = keptPartialManifest(holders[0]!);
    expect(rewritten.match(/__rtPartialManifestJson\(manifest, router\)/g)).toHaveLength(2);
    expect(rewritten.match(/JSON\.stringify\(\s*getPartialManifest\(manifest, router\)/g)).toHaveLength(1);
    expect(keptPartialManifest("const x = 1;")).toBe("const x = 1;");

    // Documents of a small build, with and without the hook: the same manifests.
    const probe = smallBuildProbe(
      ["/a/1", "/a/2", "/a/1", "/b/c", "/a/1/", "/"],
      String.raw`url, res.status, ((m) => (m ? JSON.stringify(JSON.parse(m[1]).routes) : "no manifest"))(/window\.__reactRouterManifest = ([\s\S]*?);\n/.exec(html))`,
    );
    const kept = runProbe(probe, true);
    expect(kept).toBe(runProbe(probe, false));
    expect(kept.split("\n")).toHaveLength(6);
    expect(kept).toContain('/b/c 200 {"root"');
    expect(kept).not.toContain("no manifest");
  });
});


describe("the route tables of <ServerRouter> are kept per build (decision 033)", () => {
  type Tables = { server: (routes: object, modules: object, future: object, spa: boolean) => unknown; data: (routes: object) => { manifest: object; dataRoutes: unknown }; built: () => { server: number; data: number } };
  // Stand-ins for React Router's two builders and their call sites, as the installed chunks hold them.
  const load = () =>
    new Function(
      `${keptRouteTables(`let builtServer = 0, builtData = 0;
function createServerRoutes(manifest, routeModules, future, isSpaMode) { builtServer++; return Object.keys(manifest).map((id) => ({ id, module: routeModules[id], spa: isSpaMode })); }
function mapRouteProperties(route) { return route; }
function convertRoutesToDataRoutes(routes, mapRouteProperties, parentPath, manifest) { builtData++; return routes.map((r) => (manifest[r.id] = { ...r })); }
function ServerRouter(context, manifest, routeModules) {
  let routes = createServerRoutes(
    manifest.routes,
    routeModules,
    context.future,
    context.isSpaMode
  );
  return routes;
}
function createStaticRouter(routes, context, opts = {}) {
  let manifest = {};
  let dataRoutes = convertRoutesToDataRoutes(
    routes,
    mapRouteProperties,
    void 0,
    manifest
  );
  return { manifest, dataRoutes };
}`)}
return {
  server: (routes, modules, future, spa) => ServerRouter({ future, isSpaMode: spa }, { routes }, modules),
  data: (routes) => createStaticRouter(routes, {}),
  built: () => ({ server: builtServer, data: builtData }),
};`,
    )() as Tables;

  it("builds the server routes once per build, and again when a module, the flags or the mode differ", () => {
    const { server, built } = load();
    const routes = { root: {}, page: {} };
    const modules = { root: { name: "root" }, page: { name: "page" } };
    const future = {};
    const first = server(routes, modules, future, false);
    // Each document gets a new object of the same modules (createEntryRouteModules).
    expect(server(routes, { ...modules }, future, false)).toBe(first);
    expect(built().server).toBe(1);
    expect(server(routes, { ...modules, page: { name: "page, rebuilt" } }, future, false)).not.toBe(first);
    expect(server(routes, { root: modules.root }, future, false)).not.toBe(first);
    expect(server(routes, modules, {}, false)).not.toBe(first);
    expect(server(routes, modules, future, true)).not.toBe(first);
    expect(server({ ...routes }, modules, future, true)).not.toBe(first);
    expect(built().server).toBe(6);
  });

  it("converts the same server routes to data routes once, another array again", () => {
    const { data, built } = load();
    const routes = [{ id: "root" }, { id: "page" }];
    const first = data(routes);
    expect(data(routes)).toEqual(first);
    expect(data(routes).dataRoutes).toBe(first.dataRoutes);
    expect(first.manifest).toEqual({ root: { id: "root" }, page: { id: "page" } });
    expect(built().data).toBe(1);
    data([...routes]);
    expect(built().data).toBe(2);
  });

  it("rewrites the one call site of each installed chunk, and renders the same documents", () => {
    const chunks = installedChunks();
    const servers = chunks.filter((c) => /let routes = createServerRoutes\(\s*manifest\.routes,/.test(c));
    const statics = chunks.filter((c) => c.includes("function createStaticRouter("));
    expect(servers).toHaveLength(1);
    expect(statics).toHaveLength(1);
    const server = keptRouteTables(servers[0]!);
    expect(server.match(/__rtServerRoutes\(manifest\.routes, routeModules, context\.future, context\.isSpaMode\)/g)).toHaveLength(1);
    expect(server).not.toMatch(/let routes = createServerRoutes\(/);
    const converted = keptRouteTables(statics[0]!);
    expect(converted.match(/let \{ manifest, dataRoutes \} = __rtDataRoutes\(routes\);/g)).toHaveLength(1);
    expect(keptRouteTables("const x = 1;")).toBe("const x = 1;");

    // Whole documents of a small build, pages, a repeat, a 404 and a thrown error, with and without the hook.
    const probe = smallBuildProbe(["/a/1", "/a/2", "/a/1", "/b/c", "/nope", "/broken", "/a/3"], "url, res.status, JSON.stringify(html)");
    const kept = runProbe(probe, true);
    expect(kept).toBe(runProbe(probe, false));
    const lines = kept.split("\n");
    expect(lines).toHaveLength(7);
    expect(lines[0]).toMatch(/^\/a\/1 200 "<!DOCTYPE html><html>/);
    expect(lines[0]).toContain("item {&quot;name&quot;:&quot;item&quot;,&quot;id&quot;:&quot;1&quot;}");
    expect(lines[0]).toContain("streamController.enqueue");
    expect(lines[4]).toMatch(/^\/nope 404 .*<h1>404<\/h1>/);
    expect(lines[5]).toMatch(/^\/broken 403 .*<h1>403<\/h1>/);
  });
});
