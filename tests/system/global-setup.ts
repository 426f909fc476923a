// The system tests run the production build: build it once when it is missing (the browser tests
// of `npm test` have just built it; a standalone `npm run test:system` builds here).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export default function setup() {
  if (existsSync("build/server/index.js") && process.env.SYSTEM_REBUILD !== "1") return;
  const r = spawnSync("npm", ["run", "--silent", "build"], { stdio: "inherit" });
  if (r.status !== 0) throw new Error("npm run build a échoué");
}
