// The Node.js options of the production server, read from package.json's `serve` script (one
// source of truth for `npm run serve`, `npm start` and the start-and-serve smoke test).
import { readFileSync } from "node:fs";
import path from "node:path";

/** The compiled server that `npm run build` writes (scripts/production-build.ts, decision 042). */
export const SERVER_ENTRY = "build/server.js";

/** The words between `node` and build/server.js in the script, e.g. ["--max-old-space-size=512"]. */
export function serverNodeArgs(script: string): string[] {
  const m = /\bnode\s+(.*?)\s*\bbuild\/server\.js\b/.exec(script);
  if (!m) throw new Error(`Script de démarrage inattendu : ${script}`);
  return m[1]!.split(/\s+/).filter(Boolean);
}

export function productionServerArgs(root: string): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
  return [...serverNodeArgs(pkg.scripts.serve!), SERVER_ENTRY];
}
