// A TCP proxy between a server under test and its PostgreSQL, to simulate an outage without
// stopping the real cluster (shared with other engineers and CI): cut() closes every open
// connection and stops listening, so new connections are refused (ECONNREFUSED) exactly as when
// the database goes away; restore() listens again on the same port.
import { createConnection, createServer, type Server, type Socket } from "node:net";

export type TcpProxy = {
  /** The loopback port the proxy listens on. */
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  proxiedUrl: (url: string) => string;
  /** Drops every connection and refuses new ones. */
  cut: () => Promise<void>;
  /** Accepts connections again. */
  restore: () => Promise<void>;
  /** Connections currently relayed. */
  openConnections: () => number;
  close: () => Promise<void>;
};

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  };
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: target.host, port: target.port });
    track(client);
    track(upstream);
    // Either side ending or failing ends the pair, as a real broken connection would.
    const destroyBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", destroyBoth);
    upstream.on("error", destroyBoth);
    client.on("close", destroyBoth);
    upstream.on("close", destroyBoth);
    client.pipe(upstream);
    upstream.pipe(client);
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });

  await listen(0);
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  let listening = true;

  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));

  const cut = async () => {
    if (!listening) return;
    listening = false;
    const closed = stopListening();
    // A reset, not a polite FIN: what the application sees when the database host goes away.
    for (const s of sockets) s.resetAndDestroy();
    await closed;
  };

  const restore = async () => {
    if (listening) return;
    // The port was ours a moment ago; retry briefly should the kernel still hold it.
    for (let attempt = 0; ; attempt++) {
      try {
        await listen(port);
        break;
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    listening = true;
  };

  return {
    port,
    proxiedUrl: (url: string) => {
      const u = new URL(url);
      u.hostname = "127.0.0.1";
      u.port = String(port);
      return u.toString();
    },
    cut,
    restore,
    openConnections: () => sockets.size / 2,
    close: async () => {
      await cut();
    },
  };
}
