// Live notifications: each open tab holds one Server-Sent Events stream; each
// instance LISTENs once on 'rt_notifications' (the notifications trigger sends the user id at
// commit, sign-out sends "signout:<session id>") and pushes the user's fresh state to that user's
// streams on this instance. Works with any number of instances on one PostgreSQL, and on PGlite.
//
// A stream lives no longer than its session, whatever ended it:
// - every push checks the sessions of the streams it sends to, read alongside the state (one
//   lookup by primary key): a revoked session never receives another event;
// - the instance also LISTENs on 'rt_member_guard', which the database notifies at commit on
//   every write to "session" or "user" (migration 0015): those users' streams are checked at once;
// - a sweep every minute checks every stream's session, should a notification be missed.
// A session holds at most 3 streams and a member 6 per instance, the oldest closed first.
import { and, gt, sql } from "drizzle-orm";
import { getAuth } from "~/auth/auth.server";
import { db, getDatabase } from "~/db/client.server";
import type { Listen } from "~/db/listen.server";
import { session } from "~/db/schema";
import { isDraining, RETRY_AFTER_SECONDS } from "~/lib/availability.server";
import { logger } from "~/lib/logger.server";
import { sseMessage, type NotificationState } from "./notification-rules";
import { getNotificationState } from "./notifications.server";
import { streamsOverCap, type StreamCaps } from "./stream-cap";

export const NOTIFICATIONS_CHANNEL = "rt_notifications";
/** Writes to session, user, profiles and user_roles name their users here at commit (migration 0015). */
export const MEMBER_GUARD_CHANNEL = "rt_member_guard";
const SIGNOUT_PREFIX = "signout:";
/** A comment line this often keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 25_000;
/** What the browser waits before reconnecting a stream that ended (SSE `retry:`). */
const CLIENT_RETRY_MS = 5_000;
/** How often every stream's session is checked again, should a revocation's notification be missed. */
export const SESSION_SWEEP_MS = 60_000;

/** Of these session ids, those still valid (existing, not expired). */
export type SessionCheck = (sessionIds: readonly string[]) => Promise<Set<string>>;

/** One statement by primary key, whatever the number of sessions (one array parameter). */
export const liveSessionIds: SessionCheck = async (sessionIds) => {
  if (sessionIds.length === 0) return new Set();
  const rows = await db
    .select({ id: session.id })
    .from(session)
    .where(and(sql`${session.id} = any(${sql.param([...sessionIds])}::text[])`, gt(session.expiresAt, new Date())));
  return new Set(rows.map((r) => r.id));
};

export type HubOptions = {
  load?: (userId: string) => Promise<NotificationState>;
  sessions?: SessionCheck;
  caps?: StreamCaps;
  sweepMs?: number;
};

export type LiveSubscriber = {
  userId: string;
  sessionId: string;
  send: (state: NotificationState) => void;
  close: () => void;
};

export class NotificationHub {
  /** Each user's streams on this instance, oldest first (a Set keeps insertion order). */
  private readonly byUser = new Map<string, Set<LiveSubscriber>>();
  private stopListening: (() => Promise<void>) | undefined;
  private stopGuardListening: (() => Promise<void>) | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private listening = false;
  private guardListening = false;
  private readonly pending = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  readonly load: (userId: string) => Promise<NotificationState>;
  private readonly sessions: SessionCheck;
  private readonly caps: StreamCaps | undefined;
  private readonly sweepMs: number;
  closed = false;

  constructor(
    private readonly listen: Listen | undefined,
    options: HubOptions = {},
  ) {
    this.load = options.load ?? ((userId) => getNotificationState(userId, { fresh: true }));
    this.sessions = options.sessions ?? liveSessionIds;
    this.caps = options.caps;
    this.sweepMs = options.sweepMs ?? SESSION_SWEEP_MS;
  }

  get size(): number {
    let n = 0;
    for (const set of this.byUser.values()) n += set.size;
    return n;
  }

  /** Whether both LISTENs are in place (tests wait for it). */
  get isListening(): boolean {
    return this.listening && (this.guardListening || !this.listen);
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
    for (const old of streamsOverCap([...set], this.caps)) this.end(old);
    return () => this.remove(subscriber);
  }

  /** A new stream's first state, sent once its session is confirmed (it may have just ended). */
  async greet(subscriber: LiveSubscriber): Promise<void> {
    const [state, alive] = await Promise.all([this.load(subscriber.userId), this.sessions([subscriber.sessionId])]);
    if (!this.isOpen(subscriber)) return;
    if (alive.has(subscriber.sessionId)) subscriber.send(state);
    else this.end(subscriber);
  }

  /**
   * Sends the user's state to their streams on this instance (one query for all their tabs), each
   * stream's session checked alongside: a revoked session's stream ends instead.
   */
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
        const checked = new Set([...(this.byUser.get(userId) ?? [])].map((s) => s.sessionId));
        const [state, alive] = await Promise.all([this.load(userId), this.sessions([...checked])]);
        for (const s of [...(this.byUser.get(userId) ?? [])]) {
          // A stream opened meanwhile was not checked here: its own first state is (greet).
          if (!checked.has(s.sessionId)) continue;
          if (alive.has(s.sessionId)) s.send(state);
          else this.end(s);
        }
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

  /**
   * Ends the streams whose session no longer exists or has expired: those of `userIds`, or all.
   * A failed check ends nothing (no state can be read then either) and is logged.
   */
  async checkSessions(userIds?: readonly string[]): Promise<void> {
    const streams: LiveSubscriber[] = [];
    if (userIds) for (const userId of userIds) streams.push(...(this.byUser.get(userId) ?? []));
    else for (const set of this.byUser.values()) streams.push(...set);
    if (streams.length === 0) return;
    try {
      const alive = await this.sessions([...new Set(streams.map((s) => s.sessionId))]);
      for (const s of streams) if (!alive.has(s.sessionId)) this.end(s);
    } catch (error) {
      logger.warn({ err: error }, "live streams' sessions not checked");
    }
  }

  /** Ends the streams of a session (signed out on any instance). */
  endSession(sessionId: string): void {
    for (const set of [...this.byUser.values()]) for (const s of [...set]) if (s.sessionId === sessionId) this.end(s);
  }

  /** Graceful shutdown: every stream ends (the browsers reconnect elsewhere), LISTEN stops. */
  async closeAll(): Promise<void> {
    this.closed = true;
    for (const set of [...this.byUser.values()]) for (const s of [...set]) this.end(s);
    this.byUser.clear();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
    const stops = [this.stopListening, this.stopGuardListening];
    this.stopListening = this.stopGuardListening = undefined;
    await Promise.all(stops.map((stop) => stop?.()));
  }

  private isOpen(subscriber: LiveSubscriber): boolean {
    return this.byUser.get(subscriber.userId)?.has(subscriber) === true;
  }

  private remove(subscriber: LiveSubscriber) {
    const current = this.byUser.get(subscriber.userId);
    current?.delete(subscriber);
    if (current && current.size === 0) this.byUser.delete(subscriber.userId);
  }

  private end(subscriber: LiveSubscriber) {
    this.remove(subscriber);
    subscriber.close();
  }

  private start() {
    if (!this.sweepTimer) {
      this.sweepTimer = setInterval(() => void this.checkSessions(), this.sweepMs);
      this.sweepTimer.unref();
    }
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
    // Sessions and users written anywhere (sign-out, revocation, password, two-factor,
    // suspension, deletion…): '*' or the user ids concerned, at commit.
    this.stopGuardListening = this.listen(MEMBER_GUARD_CHANNEL, {
      notify: (payload) => void this.checkSessions(payload === "*" || payload === "" ? undefined : payload.split(",")),
      state: (up) => {
        this.guardListening = up;
        // A revocation committed while this LISTEN was not in place was not heard.
        if (up) void this.checkSessions();
      },
    });
  }
}

let current: { hub: NotificationHub; database: ReturnType<typeof getDatabase> } | undefined;

/** The process-wide hub, listening on the process-wide database (a new one if that database changed). */
export function getNotificationHub(): NotificationHub {
  const database = getDatabase();
  if (current?.database !== database) {
    void current?.hub.closeAll();
    current = { hub: new NotificationHub(database.listen), database };
  }
  return current.hub;
}

/** The live streams this instance holds now (for /metrics; 0 before the first one). */
export function liveStreamCount(): number {
  return current?.hub.size ?? 0;
}

/** server.ts, when draining starts: the streams would hold the shutdown open. */
export async function closeLiveNotifications(): Promise<void> {
  await current?.hub.closeAll();
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
 * ended by the browser (abort), by the end of its session, by newer streams over the caps, or by
 * a graceful shutdown.
 */
export function notificationStreamResponse(request: Request, who: { userId: string; sessionId: string }, hub = getNotificationHub()): Response {
  if (isDraining() || hub.closed) {
    return new Response("Service en cours d’arrêt.", { status: 503, headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } });
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
        hub.greet(subscriber).catch((error: unknown) => {
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
