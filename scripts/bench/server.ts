// The production server as a child process (its own process group, so that npm and node
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

export type RunningServer = {
  baseUrl: string;
  port: number;
  child: ChildProcess;
  /** SIGTERM to the process group, then SIGKILL after 10 s. */
  stop: () => Promise<void>;
  /** Sends a signal to the whole process group (npm and node). */
  signal: (sig: NodeJS.Signals) => void;
  /** Resolves when every process of the group is gone. */
  exited: (timeoutMs?: number) => Promise<boolean>;
  killSync: () => void;
  /** Everything the server wrote on stdout and stderr so far (only with `capture`). */
  output: () => string;
};

export type StartOptions = {
  timeoutMs?: number;
  /** Keep stdout/stderr in memory (output()) instead of inheriting them. */
  capture?: boolean;
  /** Reuse a port (restart on the same address); a free one otherwise. */
  port?: number;
  /** Default "warn". */
  logLevel?: string;
  /** Interface to listen on (default 127.0.0.1; "0.0.0.0" for every interface). */
  host?: string;
  /** Directory holding the build to serve (default: the current one). */
  cwd?: string;
};

export async function startServer(env: Record<string, string | undefined>, options: StartOptions | number = {}): Promise<RunningServer> {
  const opts: StartOptions = typeof options === "number" ? { timeoutMs: options } : options;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const port = opts.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn("npm", ["run", "--silent", "serve"], {
    env: { ...process.env, APP_URL: baseUrl, ...env, PORT: String(port), HOST: opts.host ?? "127.0.0.1", LOG_LEVEL: opts.logLevel ?? "warn" },
    stdio: opts.capture ? ["ignore", "pipe", "pipe"] : ["ignore", "inherit", "inherit"],
    detached: true,
    cwd: opts.cwd,
  });
  const chunks: string[] = [];
  child.stdout?.setEncoding("utf8").on("data", (c: string) => chunks.push(c));
  child.stderr?.setEncoding("utf8").on("data", (c: string) => chunks.push(c));
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
    if (exited) throw new Error(`Le serveur s'est arrêté au démarrage.\n${chunks.join("")}`);
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
  const waitExit = async (ms = 10_000) => {
    const end = Date.now() + ms;
    while (groupAlive() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    return !groupAlive();
  };
  return { baseUrl, port, child, stop, signal, exited: waitExit, killSync: () => signal("SIGKILL"), output: () => chunks.join("") };
}
