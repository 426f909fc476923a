// `npm run build`: `react-router build`, then server.ts compiled to build/server.js (what
// `npm start` / `npm run serve` run with plain node; decision 042), then build/.inputs-hash, a
// hash of what the build read.
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
import { SERVER_ENTRY as SERVER_ENTRY_PATH } from "./runtime/server-args";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MARKER = path.join(root, "build", ".inputs-hash");
const DIRECTORIES = ["app", "public"];
const FILES = ["server.ts", "package.json", "package-lock.json", "vite.config.ts", "react-router.config.ts", "tsconfig.json"];
/** The compiled server.ts, next to React Router's build/client and build/server. */
const SERVER_ENTRY = path.join(root, SERVER_ENTRY_PATH);

/** A hash of what the build reads: server.ts, the app and public files (tests aside), their configuration and the locked dependencies. */
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
    existsSync(SERVER_ENTRY) &&
    existsSync(MARKER) &&
    readFileSync(MARKER, "utf8").trim() === buildInputsHash()
  );
}

/**
 * server.ts as one JavaScript file, its packages left to node_modules. It must import no app
 * module: those are bundled once, in build/server/index.js, and reach server.ts through it.
 */
export async function buildServerEntry(): Promise<void> {
  const { build } = await import("vite");
  const appDir = path.join(root, "app") + path.sep;
  await build({
    configFile: false,
    root,
    publicDir: false,
    logLevel: "warn",
    build: { ssr: path.join(root, "server.ts"), outDir: path.dirname(SERVER_ENTRY), emptyOutDir: false, target: "node20", sourcemap: false },
    plugins: [
      {
        name: "server-imports-no-app-module",
        load(id) {
          if (id.startsWith(appDir)) this.error(`server.ts imports ${path.relative(root, id)}: take it from the server build (app/server-modules.server.ts, decision 042)`);
          return null;
        },
      },
    ],
  });
}

/** Runs `react-router build`, compiles server.ts and records the inputs they were made from. */
export async function productionBuild(): Promise<void> {
  // The inputs as they were when the build started: an edit made during it rebuilds next time.
  const inputs = buildInputsHash();
  rmSync(MARKER, { force: true });
  const r = spawnSync(path.join(root, "node_modules", ".bin", "react-router"), ["build"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) throw new Error("react-router build a échoué");
  await buildServerEntry();
  writeFileSync(MARKER, `${inputs}\n`);
}

/** Builds unless build/ is current (`SYSTEM_REBUILD=1` always builds); says which. */
export async function ensureProductionBuild(): Promise<"reused" | "built"> {
  if (process.env.SYSTEM_REBUILD !== "1" && productionBuildIsCurrent()) return "reused";
  await productionBuild();
  return "built";
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    if (process.argv.includes("--if-stale")) {
      if ((await ensureProductionBuild()) === "reused") console.log("Build de production à jour : réutilisé (build/.inputs-hash).");
    } else {
      await productionBuild();
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
