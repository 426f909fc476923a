// The production server as a child process (its own process group, so that npm, tsx and node
// stop together), on a free loopback port.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export type RunningServer = { baseUrl: string; child: ChildProcess; stop: () => Promise<void>; killSync: () => void };

export async function startServer(env: Record<string, string | undefined>, timeoutMs = 60_000): Promise<RunningServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn("npm", ["run", "--silent", "serve"], {
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", APP_URL: baseUrl, LOG_LEVEL: "warn" },
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  const signal = (sig: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, sig);
    } catch {
      // Already gone.
    }
  };
  // npm exits before the server it started: wait for the whole process group to be gone.
  const groupAlive = () => {
    if (child.pid === undefined) return false;
    try {
      process.kill(-child.pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const stop = async () => {
    if (!groupAlive()) return;
    signal("SIGTERM");
    const deadline = Date.now() + 10_000;
    while (groupAlive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (groupAlive()) {
      signal("SIGKILL");
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) throw new Error("Le serveur s'est arrêté au démarrage.");
    try {
      const res = await fetch(`${baseUrl}/healthz`);
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Le serveur n'a pas répondu sur /healthz en ${timeoutMs / 1000} s.`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { baseUrl, child, stop, killSync: () => signal("SIGKILL") };
}
