// `npm run build`: `react-router build`, then build/.inputs-hash, a hash of what the build read.
// The browser and system tests run the production build and make it only when that hash no
// longer matches the sources (`--if-stale`), so one CI run builds once and a build left by an
// older checkout is never tested.
//
//   npm run build                                   always builds
//   npx tsx scripts/production-build.ts --if-stale  builds unless build/ is current
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MARKER = path.join(root, "build", ".inputs-hash");
const DIRECTORIES = ["app", "public"];
const FILES = ["package.json", "package-lock.json", "vite.config.ts", "react-router.config.ts", "tsconfig.json"];

/** A hash of what `react-router build` reads: the app and public files (tests aside), its configuration and the locked dependencies. */
export function buildInputsHash(): string {
  const hash = createHash("sha256");
  const files = DIRECTORIES.flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !/\.test\.tsx?$/.test(e.name))
      .map((e) => path.relative(root, path.join(e.parentPath, e.name))),
  );
  for (const file of [...files.sort(), ...FILES]) {
    const full = path.join(root, file);
    if (!existsSync(full)) continue;
    hash.update(file).update("\0").update(readFileSync(full)).update("\0");
  }
  return hash.digest("hex");
}

/** True when build/ was made from the current inputs. */
export function productionBuildIsCurrent(): boolean {
  return (
    existsSync(path.join(root, "build", "server", "index.js")) &&
    existsSync(MARKER) &&
    readFileSync(MARKER, "utf8").trim() === buildInputsHash()
  );
}

/** Runs `react-router build` and records the inputs it was made from. */
export function productionBuild(): void {
  // The inputs as they were when the build started: an edit made during it rebuilds next time.
  const inputs = buildInputsHash();
  rmSync(MARKER, { force: true });
  const r = spawnSync(path.join(root, "node_modules", ".bin", "react-router"), ["build"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) throw new Error("react-router build a échoué");
  writeFileSync(MARKER, `${inputs}\n`);
}

/** Builds unless build/ is current (`SYSTEM_REBUILD=1` always builds); says which. */
export function ensureProductionBuild(): "reused" | "built" {
  if (process.env.SYSTEM_REBUILD !== "1" && productionBuildIsCurrent()) return "reused";
  productionBuild();
  return "built";
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    if (process.argv.includes("--if-stale")) {
      if (ensureProductionBuild() === "reused") console.log("Build de production à jour : réutilisé (build/.inputs-hash).");
    } else {
      productionBuild();
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
