// The start command of the image and of the systemd unit is `npm run serve` (decision 044): npm
// must hand SIGTERM to the server, whose drain then ends with exit 0 — else a container or the
// unit would be killed at the end of its grace period instead of stopping cleanly. The image's
// HEALTHCHECK command, taken from the Dockerfile, is run against that server.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { freePort } from "./support/server";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "rt-npm-serve-"));
let npm: ChildProcess | undefined;

afterAll(() => {
  // npm leads its own process group: a server left behind by a failed stop goes with it.
  try {
    if (npm?.pid) process.kill(-npm.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** The Dockerfile's HEALTHCHECK command, exec form. */
function healthcheckCommand(): string[] {
  const dockerfile = readFileSync(path.join(root, "Dockerfile"), "utf8").replace(/\\\n/g, " ");
  const json = /^HEALTHCHECK\b.*?\bCMD\s+(\[.*\])\s*$/m.exec(dockerfile)?.[1];
  if (!json) throw new Error("HEALTHCHECK en forme exec introuvable dans le Dockerfile");
  return JSON.parse(json) as string[];
}

it("npm run serve passes the health check, then stops cleanly on SIGTERM", async () => {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: "", SMTP_URL: "", APP_URL: "", LOG_LEVEL: "info" };
  let output = "";
  // The signal goes to npm alone, as a container engine or systemd (KillMode aside) sends it.
  npm = spawn("npm", ["run", "serve"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  npm.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => npm!.once("exit", (code, signal) => resolve({ code, signal })));

  const [command, ...args] = healthcheckCommand();
  const deadline = Date.now() + 90_000;
  let healthy = false;
  while (!healthy && Date.now() < deadline && npm.exitCode === null) {
    await new Promise((r) => setTimeout(r, 500));
    healthy = spawnSync(command!, args, { env, timeout: 5_000 }).status === 0;
  }
  expect(healthy, output).toBe(true);
  expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
  // The server (npm's child: the script execs node) runs with glibc's two malloc arenas (decision 081).
  const server = readdirSync("/proc")
    .filter((pid) => /^\d+$/.test(pid))
    .find((pid) => {
      try {
        return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1] === String(npm!.pid);
      } catch {
        return false;
      }
    });
  expect(server, output).toBeDefined();
  expect(readFileSync(`/proc/${server}/environ`, "utf8").split("\0")).toContain("MALLOC_ARENA_MAX=2");

  const signalledAt = Date.now();
  npm.kill("SIGTERM");
  const { code, signal } = await exited;
  expect({ code, signal }, output).toEqual({ code: 0, signal: null });
  // server.ts: drained within 10 s, forced out 5 s later; an idle server is out at once.
  expect(Date.now() - signalledAt).toBeLessThan(15_000);
  expect(output).toContain("shutdown complete");
  // The health check now fails: nothing listens any more.
  expect(spawnSync(command!, args, { env, timeout: 5_000 }).status).not.toBe(0);
});
