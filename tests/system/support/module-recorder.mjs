// Preloaded into a server process by tests/system/start.test.ts (NODE_OPTIONS=--import): records
// what the process ran and every module it loaded, into MODULE_RECORD_DIR/<pid>.json when it exits.
// Plain JavaScript: the production server runs without any TypeScript loader.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import process from "node:process";
import { createRequire, register } from "node:module";
import path from "node:path";

const dir = process.env.MODULE_RECORD_DIR;
if (dir) {
  mkdirSync(dir, { recursive: true });
  const esmFile = path.join(dir, `${process.pid}.esm`);
  writeFileSync(esmFile, "");
  // ES modules: seen by a load hook (it runs on the loader's own thread and appends to esmFile).
  register("./module-recorder-hooks.mjs", import.meta.url, { data: { file: esmFile } });
  const require = createRequire(import.meta.url);
  process.on("exit", () => {
    const esm = readFileSync(esmFile, "utf8").split("\n").filter(Boolean);
    // CommonJS modules: the require cache.
    const cjs = Object.keys(require.cache).map((file) => `file://${file}`);
    const record = { argv: process.argv, execArgv: process.execArgv, modules: [...new Set([...esm, ...cjs])] };
    writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(record));
  });
}
