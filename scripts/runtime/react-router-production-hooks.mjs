// Module resolution hook of react-router-production.mjs (runs on Node's hooks thread).
const ENTRY = /\/node_modules\/react-router\/dist\/development\/(index|dom-export)\.(m?js)$/;

/** @type {import("node:module").ResolveHook} */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const m = ENTRY.exec(resolved.url);
  return m ? { ...resolved, url: resolved.url.replace("/dist/development/", "/dist/production/") } : resolved;
}
