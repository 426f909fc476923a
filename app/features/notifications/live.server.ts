// Live notifications (issue 15 §3): each open tab holds one Server-Sent Events stream; each
// instance LISTENs once on 'rt_notifications' (the notifications trigger sends the user id at
// commit, sign-out sends "signout:<session id>") and pushes the user's fresh state to that user's
// streams on this instance. Works with any number of instances on one PostgreSQL, and on PGlite.
//
// The hub lives on globalThis: server.ts (which closes every stream when a graceful shutdown
// starts) and the server build (which opens them) are two module instances.
import { sql } from "drizzle-orm";
import { getAuth } from "~/auth/auth.server";
import { db, getDatabase } from "~/db/client.server";
import type { Listen } from "~/db/listen.server";
import { isDraining, RETRY_AFTER_SECONDS } from "~/lib/availability.server";
import { logger } from "~/lib/logger.server";
import { sseMessage, type NotificationState } from "./notification-rules";
import { getNotificationState } from "./notifications.server";

export const NOTIFICATIONS_CHANNEL = "rt_notifications";
const SIGNOUT_PREFIX = "signout:";
/** A comment line this often keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 25_000;
/** What the browser waits before reconnecting a stream that ended (SSE `retry:`). */
const CLIENT_RETRY_MS = 5_000;

export type LiveSubscriber = {
  userId: string;
  sessionId: string;
  send: (state: NotificationState) => void;
  close: () => void;
};

export class NotificationHub {
  private readonly byUser = new Map<string, Set<LiveSubscriber>>();
  private stopListening: (() => Promise<void>) | undefined;
  private listening = false;
  private readonly pending = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  closed = false;

  constructor(
    private readonly listen: Listen | undefined,
    readonly load: (userId: string) => Promise<NotificationState> = (userId) => getNotificationState(userId, { fresh: true }),
  ) {}

  get size(): number {
    let n = 0;
    for (const set of this.byUser.values()) n += set.size;
    return n;
  }

  /** Whether LISTEN is in place (tests wait for it). */
  get isListening(): boolean {
    return this.listening;
  }

  subscribe(subscriber: LiveSubscriber): () => void {
    if (this.closed) {
      subscriber.close();
      return () => {};
    }
    this.start();
    let set = this.byUser.get(subscriber.userId);
    if (!set) this.byUser.set(subscriber.userId, (set = new Set()));
    set.add(subscriber);
    return () => {
      const current = this.byUser.get(subscriber.userId);
      current?.delete(subscriber);
      if (current && current.size === 0) this.byUser.delete(subscriber.userId);
    };
  }

  /** Sends the user's state to their streams on this instance (one query for all their tabs). */
  push(userId: string): Promise<void> {
    if (!this.byUser.has(userId)) return Promise.resolve();
    const running = this.pending.get(userId);
    if (running) {
      // A change arrived while the state was being read: read it once more afterwards.
      this.again.add(userId);
      return running;
    }
    const run = (async () => {
      try {
        const state = await this.load(userId);
        for (const s of this.byUser.get(userId) ?? []) s.send(state);
      } catch (error) {
        logger.warn({ err: error }, "live notification state not read");
      } finally {
        this.pending.delete(userId);
        if (this.again.delete(userId)) void this.push(userId);
      }
    })();
    this.pending.set(userId, run);
    return run;
  }

  /** Ends the streams of a session (signed out on any instance). */
  endSession(sessionId: string): void {
    for (const set of this.byUser.values()) for (const s of [...set]) if (s.sessionId === sessionId) s.close();
  }

  /** Graceful shutdown: every stream ends (the browsers reconnect elsewhere), LISTEN stops. */
  async closeAll(): Promise<void> {
    this.closed = true;
    for (const set of [...this.byUser.values()]) for (const s of [...set]) s.close();
    this.byUser.clear();
    const stop = this.stopListening;
    this.stopListening = undefined;
    await stop?.();
  }

  private start() {
    if (this.stopListening || !this.listen) return;
    this.stopListening = this.listen(NOTIFICATIONS_CHANNEL, {
      notify: (payload) => {
        if (payload.startsWith(SIGNOUT_PREFIX)) this.endSession(payload.slice(SIGNOUT_PREFIX.length));
        else void this.push(payload);
      },
      state: (up) => {
        this.listening = up;
        // LISTEN is in place: a change committed before it (the first stream's LISTEN starts
        // with it; or after a loss) was not heard, so every stream gets its state again.
        if (up) for (const userId of this.byUser.keys()) void this.push(userId);
      },
    });
  }
}

const g = globalThis as unknown as { __rtNotificationHub?: NotificationHub };

/** The process-wide hub, listening on the process-wide database. */
export function getNotificationHub(): NotificationHub {
  return (g.__rtNotificationHub ??= new NotificationHub(getDatabase().listen));
}

/** server.ts, when draining starts: the streams would hold the shutdown open. */
export async function closeLiveNotifications(): Promise<void> {
  await g.__rtNotificationHub?.closeAll();
}

/** Tells every instance to end the streams of a session (called on sign-out, before it ends). */
export async function announceSignOut(request: Request): Promise<void> {
  try {
    const session = await getAuth().api.getSession({ headers: request.headers });
    if (!session) return;
    await db.execute(sql`select pg_notify(${NOTIFICATIONS_CHANNEL}, ${SIGNOUT_PREFIX + session.session.id})`);
  } catch (error) {
    logger.warn({ err: error }, "sign-out not announced to live streams");
  }
}

/** The session behind a request (the stream is tied to it, to end with it). */
export async function getStreamSession(request: Request): Promise<{ userId: string; sessionId: string } | null> {
  const session = await getAuth().api.getSession({ headers: request.headers });
  return session ? { userId: session.user.id, sessionId: session.session.id } : null;
}

/**
 * The SSE response of one tab: the state at once, then on every change; a heartbeat comment;
 * ended by the browser (abort), by sign-out or by a graceful shutdown.
 */
export function notificationStreamResponse(request: Request, who: { userId: string; sessionId: string }, hub = getNotificationHub()): Response {
  if (isDraining() || hub.closed) {
    return new Response("Service en cours d'arrêt.", { status: 503, headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } });
  }
  const encoder = new TextEncoder();
  let cleanup: (() => void) | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const write = (chunk: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(chunk));
        } catch {
          end();
        }
      };
      const end = () => {
        if (!open) return;
        open = false;
        cleanup?.();
        try {
          controller.close();
        } catch {
          // already closed by the reader
        }
      };
      const subscriber: LiveSubscriber = { ...who, send: (state) => write(sseMessage("state", state)), close: end };
      const unsubscribe = hub.subscribe(subscriber);
      const heartbeat = setInterval(() => write(": ping\n\n"), HEARTBEAT_MS);
      heartbeat.unref();
      cleanup = () => {
        clearInterval(heartbeat);
        unsubscribe();
        request.signal.removeEventListener("abort", end);
      };
      request.signal.addEventListener("abort", end);
      write(`retry: ${CLIENT_RETRY_MS}\n\n`);
      if (open) {
        hub.load(who.userId).then(subscriber.send, (error: unknown) => {
          logger.warn({ err: error }, "live notification state not read");
          end();
        });
      }
    },
    cancel() {
      cleanup?.();
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      // no-transform: the compression middleware leaves the stream alone (it would buffer it).
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}
