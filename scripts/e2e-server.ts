// One browser-suite server: its data directory is a copy of one seeded template (the production
// build made if stale, the administrator and the French demo members), then `npm run serve`.
// The first server to start prepares the template; the others copy it instead of seeding again.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const [templateDir, adminEmail, adminPassword, members, seed] = process.argv.slice(2);
const dataDir = process.env.DATA_DIR;
if (!templateDir || !adminEmail || !adminPassword || !members || !seed || !dataDir) {
  console.error("Usage : DATA_DIR=… tsx scripts/e2e-server.ts TEMPLATE_DIR ADMIN_EMAIL ADMIN_PASSWORD MEMBERS SEED");
  process.exit(2);
}

const ready = path.join(templateDir, ".ready");
const failed = path.join(templateDir, ".failed");
const tsx = path.resolve("node_modules/tsx/dist/cli.mjs");

function run(args: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(process.execPath, [tsx, ...args], { stdio: "inherit", env });
  if (result.status !== 0) throw new Error(`${args[0]} a échoué (${result.status ?? result.signal})`);
}

async function prepareTemplate() {
  // mkdir is atomic: one server prepares, the others wait for its marker.
  mkdirSync(path.dirname(templateDir), { recursive: true });
  let first = true;
  try {
    mkdirSync(templateDir, { recursive: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    first = false;
  }
  if (!first) {
    while (!existsSync(ready)) {
      if (existsSync(failed)) throw new Error("la préparation de la base de démonstration a échoué");
      await sleep(200);
    }
    return;
  }
  try {
    const env = { ...process.env, DATA_DIR: path.join(templateDir, "data") };
    run(["scripts/production-build.ts", "--if-stale"], env);
    run(["scripts/create-admin.ts", "--email", adminEmail!, "--password", adminPassword!], env);
    run(["scripts/seed.ts", "--members", members!, "--seed", seed!], env);
    writeFileSync(ready, "");
  } catch (error) {
    writeFileSync(failed, "");
    throw error;
  }
}

await prepareTemplate();
rmSync(dataDir, { recursive: true, force: true });
cpSync(path.join(templateDir, "data"), dataDir, { recursive: true });
const server = spawn("npm", ["run", "serve"], { stdio: "inherit", env: process.env });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
