// LISTEN/NOTIFY on both drivers. A listener reports whether it is connected (`state`): while it
// is not, notifications may be missed, so whoever relies on them must not trust its caches.
import type { PGlite } from "@electric-sql/pglite";
import type { Client } from "pg";

export type ListenHandlers = {
  notify: (payload: string) => void;
  /** true once LISTEN is in place, false when the connection is lost (until it is back). */
  state: (listening: boolean) => void;
};
export type Listen = (channel: string, handlers: ListenHandlers) => () => Promise<void>;

const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

function checkChannel(channel: string) {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`invalid channel name: ${channel}`);
}

/** node-postgres: one dedicated connection, reconnected with backoff (0.5 s → 5 s). */
export function listenPg(url: string, channel: string, handlers: ListenHandlers): () => Promise<void> {
  checkChannel(channel);
  let stopped = false;
  let client: Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let delay = 500;

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void connect(), delay);
    timer.unref();
    delay = Math.min(delay * 2, 5000);
  };

  const connect = async () => {
    const pg = await import("pg");
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, keepAlive: true });
    client = c;
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      handlers.state(false);
      c.removeAllListeners("notification");
      c.end().catch(() => {});
      schedule();
    };
    c.on("error", onLost);
    c.on("end", onLost);
    c.on("notification", (msg) => {
      if (msg.channel === channel) handlers.notify(msg.payload ?? "");
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
      if (stopped) {
        await c.end().catch(() => {});
        return;
      }
      delay = 500;
      handlers.state(true);
    } catch {
      onLost();
    }
  };

  void connect();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    const c = client;
    client = undefined;
    if (c) {
      c.removeAllListeners();
      c.on("error", () => {});
      await c.end().catch(() => {});
    }
    handlers.state(false);
  };
}

/** PGlite: one process holds the database, so the listener cannot be cut off. */
export function listenPglite(client: PGlite, channel: string, handlers: ListenHandlers): () => Promise<void> {
  checkChannel(channel);
  let unlisten: (() => Promise<void>) | undefined;
  let stopped = false;
  void client.listen(channel, (payload) => handlers.notify(payload)).then((u) => {
    unlisten = u;
    if (stopped) void u().catch(() => {});
    else handlers.state(true);
  });
  return async () => {
    stopped = true;
    handlers.state(false);
    if (unlisten && !client.closed) await unlisten().catch(() => {});
  };
}
