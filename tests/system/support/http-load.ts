// A closed-loop HTTP load (N kept-alive connections, each sending its next request as soon as
// the previous one is answered) that accounts for every request, for the reliability tests.
//
// autocannon (the benchmark's load generator) reconnects silently when the server closes a
// connection, dropping a request in flight without counting it; here each request ends in exactly
// one bucket:
// - ok / non2xx: a complete response;
// - refused: the connection was refused (ECONNREFUSED), the request never reached the server;
// - failed: anything else (reset, hang-up, timeout, truncated body): the request was sent and
//   not answered.
import http from "node:http";

export type LoadStats = {
  ok: number;
  /** Status → count, for complete responses outside 2xx. */
  non2xx: Record<number, number>;
  refused: number;
  /** Error code or message → count. */
  failed: Record<string, number>;
  /** Complete responses whose request was sent before `mark()` and answered after it. */
  answeredAcrossMark: number;
  /** Total requests that reached the server (everything but `refused`). */
  started: number;
};

export type Load = {
  /** Marks a moment (e.g. the signal): requests in flight then and answered later are counted. */
  mark: () => void;
  /** Stops sending; resolves once every request in flight has ended. */
  stop: () => Promise<LoadStats>;
};

export function startHttpLoad(options: {
  baseUrl: string;
  paths: readonly string[];
  connections: number;
  /** Per request, ms (default 20 s): a hang counts as failed. */
  timeoutMs?: number;
  headers?: Record<string, string>;
}): Load {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const stats: LoadStats = { ok: 0, non2xx: {}, refused: 0, failed: {}, answeredAcrossMark: 0, started: 0 };
  let markedAt = Number.POSITIVE_INFINITY;
  let stopping = false;
  const bump = (record: Record<string, number>, key: string | number) => {
    record[key] = (record[key] ?? 0) + 1;
  };

  const one = () =>
    new Promise<void>((resolve) => {
      const path = options.paths[Math.floor(Math.random() * options.paths.length)]!;
      const sentAt = performance.now();
      let connected = false;
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        outcome();
        resolve();
      };
      const req = http.get(`${options.baseUrl}${path}`, { agent, headers: { accept: "text/html", ...options.headers } }, (res) => {
        res.on("data", () => {});
        res.on("end", () =>
          settle(() => {
            const status = res.statusCode ?? 0;
            if (status >= 200 && status < 300) stats.ok++;
            else bump(stats.non2xx, status);
            if (sentAt < markedAt && performance.now() >= markedAt) stats.answeredAcrossMark++;
          }),
        );
        res.on("error", (error: NodeJS.ErrnoException) => settle(() => bump(stats.failed, error.code ?? error.message)));
      });
      req.setTimeout(options.timeoutMs ?? 20_000, () => req.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })));
      req.on("socket", (socket) => {
        // A reused kept-alive socket is already connected: the request goes out at once.
        if (!socket.connecting) connected = true;
        else socket.once("connect", () => (connected = true));
      });
      req.on("error", (error: NodeJS.ErrnoException) =>
        settle(() => {
          if (!connected && error.code === "ECONNREFUSED") stats.refused++;
          else bump(stats.failed, error.code ?? error.message);
        }),
      );
    });

  const workers = Array.from({ length: options.connections }, async () => {
    while (!stopping) {
      await one();
      // Refused: the server is gone; do not spin.
      if (stats.refused > 0) await new Promise((r) => setTimeout(r, 20));
    }
  });

  return {
    mark: () => {
      markedAt = performance.now();
    },
    stop: async () => {
      stopping = true;
      await Promise.all(workers);
      agent.destroy();
      const failed = Object.values(stats.failed).reduce((a, b) => a + b, 0);
      const non2xx = Object.values(stats.non2xx).reduce((a, b) => a + b, 0);
      stats.started = stats.ok + non2xx + failed;
      return stats;
    },
  };
}
