// The requests the bench sends in a browser's place (scripts/bench/navigation.ts): the `.data`
// URL of each client navigation, with `_routes` when the layouts already shown are not asked
// again, the route manifest read from a build, and the fields of a server-rendered form.
import { describe, expect, it } from "vitest";
import { dataPath, formFields, keepsOnNavigation, navigationData, parseManifestRoutes, type ManifestRoute } from "./navigation";

const route = (id: string, parentId: string | undefined, path: string | undefined, hasLoader = true, extra: Partial<ManifestRoute> = {}): ManifestRoute => ({
  id, parentId, path, hasLoader, hasClientLoader: false, ...extra,
});

// The shape of app/routes.ts around the member space: a layout without a path, nested layouts, an index route.
const ROUTES: ManifestRoute[] = [
  route("root", undefined, ""),
  route("routes/public/landing", "root", undefined, false, { index: true }),
  route("routes/member/shell", "root", undefined),
  route("routes/member/dashboard/layout", "routes/member/shell", "dashboard"),
  route("routes/member/dashboard/overview", "routes/member/dashboard/layout", undefined, true, { index: true }),
  route("routes/member/dashboard/directory", "routes/member/dashboard/layout", "annuaire"),
  route("routes/member/dashboard/file/layout", "routes/member/dashboard/layout", "dossiers/:fileId"),
  route("routes/member/dashboard/file/overview", "routes/member/dashboard/file/layout", undefined, true, { index: true }),
  route("routes/member/dashboard/file/documents", "routes/member/dashboard/file/layout", "documents"),
  route("routes/member/mandates", "routes/member/shell", "mandates"),
  route("routes/member/static", "routes/member/shell", "aide-membre", false),
  route("routes/public/not-found", "root", "*"),
];

const routesParam = (url: string | null) => (url ? new URL(url, "http://x").searchParams.get("_routes") : null);

describe("navigationData", () => {
  it("asks only for the new page's loader when the layouts stay and the search does not change", () => {
    const nav = navigationData(ROUTES, "/dashboard", "/dashboard/annuaire");
    expect(nav.routeIds).toEqual(["routes/member/dashboard/directory"]);
    expect(nav.url).toBe("/dashboard/annuaire.data?_routes=routes%2Fmember%2Fdashboard%2Fdirectory");
  });

  it("asks every loader again when the search changes (no _routes)", () => {
    const nav = navigationData(ROUTES, "/dashboard/annuaire", "/dashboard/annuaire?q=Martin");
    expect(nav.routeIds).toEqual(["root", "routes/member/shell", "routes/member/dashboard/layout", "routes/member/dashboard/directory"]);
    expect(nav.url).toBe("/dashboard/annuaire.data?q=Martin");
  });

  it("asks again for a layout whose parameters changed, not for the layouts above it", () => {
    const nav = navigationData(ROUTES, "/dashboard/dossiers/a", "/dashboard/dossiers/b");
    expect(nav.routeIds).toEqual(["routes/member/dashboard/file/layout", "routes/member/dashboard/file/overview"]);
    expect(routesParam(nav.url)).toBe("routes/member/dashboard/file/layout,routes/member/dashboard/file/overview");
  });

  it("keeps a file's layout when moving between its tabs", () => {
    const nav = navigationData(ROUTES, "/dashboard/dossiers/a", "/dashboard/dossiers/a/documents");
    expect(nav.routeIds).toEqual(["routes/member/dashboard/file/documents"]);
    expect(nav.url?.startsWith("/dashboard/dossiers/a/documents.data?_routes=")).toBe(true);
  });

  it("leaves the search of the target in the URL next to _routes", () => {
    const nav = navigationData(ROUTES, "/dashboard/dossiers/a", "/mandates?matching=m1");
    expect(nav.routeIds).toEqual(["root", "routes/member/shell", "routes/member/mandates"]);
    expect(nav.url).toBe("/mandates.data?matching=m1");
    const same = navigationData(ROUTES, "/dashboard", "/mandates");
    expect(same.url).toBe("/mandates.data?_routes=routes%2Fmember%2Fmandates");
  });

  it("reloads everything for the same URL, and sends nothing when no loader has to run", () => {
    expect(navigationData(ROUTES, "/dashboard", "/dashboard")).toEqual({
      url: "/dashboard.data",
      routeIds: ["root", "routes/member/shell", "routes/member/dashboard/layout", "routes/member/dashboard/overview"],
    });
    expect(navigationData(ROUTES, "/mandates", "/aide-membre")).toEqual({ url: null, routeIds: [] });
  });

  it("keeps the frames that keep their data on navigations, unless the URL stays the same", () => {
    const framed = ROUTES.map((r) => (r.id === "routes/member/shell" || r.id === "routes/member/dashboard/layout" ? { ...r, keepsOnNavigation: true } : r));
    const search = navigationData(framed, "/dashboard/annuaire", "/dashboard/annuaire?q=Martin");
    expect(search.routeIds).toEqual(["root", "routes/member/dashboard/directory"]);
    expect(routesParam(search.url)).toBe("root,routes/member/dashboard/directory");
    expect(new URL(search.url!, "http://x").searchParams.get("q")).toBe("Martin");
    expect(navigationData(framed, "/dashboard", "/mandates?matching=m1").routeIds).toEqual(["root", "routes/member/mandates"]);
    expect(navigationData(framed, "/dashboard", "/dashboard").routeIds).toEqual([
      "root",
      "routes/member/shell",
      "routes/member/dashboard/layout",
      "routes/member/dashboard/overview",
    ]);
    // A frame newly shown loads.
    expect(navigationData(framed, "/", "/dashboard").routeIds).toEqual(["routes/member/shell", "routes/member/dashboard/layout", "routes/member/dashboard/overview"]);
  });

  it("reads which of the app's routes keep their frame from their modules", () => {
    expect(keepsOnNavigation("routes/member/shell")).toBe(true);
    expect(keepsOnNavigation("routes/member/dashboard/layout")).toBe(true);
    expect(keepsOnNavigation("routes/admin/layout")).toBe(true);
    expect(keepsOnNavigation("root")).toBe(false);
    expect(keepsOnNavigation("routes/member/mandates")).toBe(false);
    expect(keepsOnNavigation("routes/member/settings")).toBe(false);
  });

  it("falls back on the catch-all route, and names the home page _root", () => {
    expect(navigationData(ROUTES, "/dashboard", "/nulle-part").url).toBe("/nulle-part.data?_routes=routes%2Fpublic%2Fnot-found");
    expect(dataPath("/")).toBe("/_root.data");
    expect(dataPath("/dashboard/?x=1")).toBe("/dashboard.data?x=1");
  });
});

describe("parseManifestRoutes", () => {
  it("reads the routes of the client manifest file a build writes", () => {
    const text = `window.__reactRouterManifest={"entry":{"module":"/assets/entry.js","imports":[],"css":[]},"routes":{"root":{"id":"root","path":"","hasAction":false,"hasLoader":true,"hasClientAction":false,"hasClientLoader":false,"module":"/assets/root.js"},"routes/x":{"id":"routes/x","parentId":"root","path":"x","index":false,"hasLoader":false,"hasClientLoader":true,"module":"/assets/x.js"}},"url":"/assets/manifest-1.js","version":"1"};`;
    expect(parseManifestRoutes(text)).toEqual([
      { id: "root", parentId: undefined, path: "", index: undefined, caseSensitive: undefined, hasLoader: true, hasClientLoader: false },
      { id: "routes/x", parentId: "root", path: "x", index: false, caseSensitive: undefined, hasLoader: false, hasClientLoader: true },
    ]);
  });
});

describe("formFields", () => {
  const html = `
    <form method="post"><input type="hidden" name="intent" value="delete"><input name="id" value="1"></form>
    <form method="post" id="edit">
      <input type="hidden" name="intent" value="update"/>
      <input type="hidden" name="mandateId" value="m-1">
      <input name="clientName" value="Guichard &amp; fils">
      <select name="sector"><option value="A">A</option><option value="H" selected>Transport</option></select>
      <select name="region"><option value="11">Île-de-France</option></select>
      <input name="after" value="x">
      <textarea name="description">Une société &quot;familiale&quot;</textarea>
      <input type="checkbox" name="isExclusive" checked>
      <input type="checkbox" name="renewable" value="yes">
      <input type="radio" name="kind" value="sell" checked><input type="radio" name="kind" value="buy">
      <input name="locked" value="z" disabled>
      <input type="file" name="attachment">
      <button type="submit">Enregistrer</button>
    </form>`;

  it("submits what the server rendered in the form of that intent, as a browser would", () => {
    expect([...formFields(html, "update")]).toEqual([
      ["intent", "update"],
      ["mandateId", "m-1"],
      ["clientName", "Guichard & fils"],
      ["sector", "H"],
      ["region", "11"],
      ["after", "x"],
      ["description", 'Une société "familiale"'],
      ["isExclusive", "on"],
      ["kind", "sell"],
    ]);
    expect([...formFields(html, "delete")]).toEqual([["intent", "delete"], ["id", "1"]]);
  });

  it("takes the intent of a submit button named intent", () => {
    const page = `<form method="post"><input name="message" value=""><button type="submit" name="intent" value="reply">Envoyer</button></form>`;
    expect([...formFields(page, "reply")]).toEqual([["message", ""], ["intent", "reply"]]);
  });

  it("fails when the page has no form for the intent", () => {
    expect(() => formFields(html, "sign-in")).toThrow(/sign-in/);
  });
});
