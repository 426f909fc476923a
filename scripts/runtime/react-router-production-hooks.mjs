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

/** @type {import("node:module").LoadHook} */
export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (!PRODUCTION_CHUNK.test(url) || loaded.format !== "module") return loaded;
  const source = typeof loaded.source === "string" ? loaded.source : Buffer.from(loaded.source).toString("utf8");
  if (!source.includes("serverHandoffStream: encodeViaTurboStream(")) return loaded;
  return { ...loaded, source: lazyHandoff(source) };
}
