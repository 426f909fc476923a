// Start-and-serve smoke test of the production build under the Node.js running this script
// (.ci/run runs it under Node 24 from the npm registry, the test suite runs under the machine's
// Node 20): the server starts on an empty embedded database, migrates it, serves public pages,
// guards a member page, and stops cleanly on SIGTERM.
//
//   npm run build && npx -y -p node@24 node node_modules/tsx/dist/cli.mjs scripts/smoke-start.ts
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./bench/server";
import { productionServerArgs } from "./runtime/server-args";

const root = path.resolve(import.meta.dirname, "..");

async function main(): Promise<number> {
  if (!existsSync(path.join(root, "build", "server.js"))) {
    console.error("Build absent : lancez `npm run build` avant ce test.");
    return 2;
  }
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "rt-smoke-"));
  const child = spawn(process.execPath, productionServerArgs(root), {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      SMTP_URL: "",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const failures: string[] = [];
  try {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const ok = await fetch(`${baseUrl}/healthz`).then((r) => r.ok, () => false);
      if (ok) break;
      if (child.exitCode !== null) throw new Error(`le serveur s'est arrêté au démarrage (code ${child.exitCode})`);
      if (Date.now() > deadline) throw new Error("pas de réponse sur /healthz en 90 s");
      await new Promise((r) => setTimeout(r, 250));
    }
    for (const page of ["/", "/annuaire", "/auth", "/faq", "/tiers-confiance"]) {
      const res = await fetch(`${baseUrl}${page}`);
      const body = await res.text();
      if (res.status !== 200 || !body.startsWith("<!DOCTYPE html>")) failures.push(`${page} → ${res.status}`);
    }
    const member = await fetch(`${baseUrl}/dashboard/dossiers`, { redirect: "manual" });
    if (member.status !== 302 || member.headers.get("location") !== "/auth") failures.push(`/dashboard/dossiers → ${member.status} (attendu : redirection vers /auth)`);
  } catch (error) {
    failures.push(error instanceof Error ? error.message : String(error));
  } finally {
    child.kill("SIGTERM");
  }
  const code = await Promise.race([exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 15_000))]);
  if (code === "timeout") {
    child.kill("SIGKILL");
    failures.push("le serveur ne s'est pas arrêté dans les 15 s suivant SIGTERM");
  } else if (code !== 0) {
    failures.push(`arrêt avec le code ${code}`);
  }
  rmSync(dataDir, { recursive: true, force: true });
  if (failures.length) {
    console.error(`Smoke test sous Node ${process.version} : échec\n- ${failures.join("\n- ")}`);
    return 1;
  }
  console.log(`Smoke test sous Node ${process.version} : démarrage, pages publiques, garde membre et arrêt propre OK.`);
  return 0;
}

process.exitCode = await main();
