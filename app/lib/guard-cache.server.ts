// A short per-instance cache of the signed-in member's guard result (issue 17, decision 020):
// the session with its user (keyed by a SHA-256 of the session cookie, never the token itself)
// and the member's profile with their admin role (keyed by user id), for a few seconds.
//
// - Used only by read-only requests (GET, HEAD) — after an action, its loaders must see what it
//   changed — and only while this instance listens on 'rt_member_guard': notifications may be
//   missed otherwise, so nothing is served from it then (and it starts empty when back).
// - Other instances: every write to session, user, profiles or user_roles notifies
//   'rt_member_guard' at commit with the user ids concerned (migration 0015), or '*' for a large
//   write; each instance drops those users' entries.
// - This instance: every statement writing one of those tables through the app's database drops
//   the whole cache at once (app/lib/request-scope.server.ts) and again when the request that
//   wrote writes its headers, after its commit — before the member's browser can ask again.
// - A generation counter keeps a read that started before an invalidation from being stored.
// - Bounded: least recently used entries go first; an entry lives at most the TTL, and never
//   past the session's own expiry.
//
// server.ts creates the instance's cache and connects its listener; the guards use it.
import { createHash } from "node:crypto";
import { writesTo } from "./sql-writes";

export const MEMBER_GUARD_CHANNEL = "rt_member_guard";

/** Statements that write the tables behind the guards (quoted or not, in a CTE too). */
export const writesGuardTables = writesTo(["session", "user", "profiles", "user_roles"]);

/** better-auth's session cookie's name (prefix `rt`; `__Secure-` on https). */
const SESSION_COOKIE_NAME = String.raw`(?:__Secure-)?rt\.session_token`;
/** Each session cookie of a Cookie header: its name and value. */
const SESSION_COOKIE = new RegExp(String.raw`(?:^|;)\s*(${SESSION_COOKIE_NAME})=([^;]*)`, "g");
const HAS_SESSION_COOKIE = new RegExp(String.raw`(?:^|;)\s*${SESSION_COOKIE_NAME}=`);

/**
 * Whether a request carries better-auth's session cookie at all. Without it there is no session
 * to look up: an anonymous page skips better-auth's endpoint (issue 17: ~2 % of a public page).
 */
export function hasSessionCookie(cookieHeader: string | null): boolean {
  return cookieHeader !== null && HAS_SESSION_COOKIE.test(cookieHeader);
}

/** SHA-256 of the request's session cookie(s), or null without one. */
export function sessionCacheKey(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  const parts: string[] = [];
  for (const m of cookieHeader.matchAll(SESSION_COOKIE)) parts.push(`${m[1]}=${m[2]}`);
  if (parts.length === 0) return null;
  return createHash("sha256").update(parts.join("\n")).digest("base64url");
}

type Entry<V> = { userId: string; value: V; expires: number };

export type GuardCacheOptions = { ttlMs: number; maxEntries?: number; now?: () => number };
export type GuardCacheStats = { hits: number; misses: number; invalidations: number };

export class GuardCache<S, M> {
  readonly ttlMs: number;
  readonly maxEntries: number;
  private readonly now: () => number;
  private readonly sessions = new Map<string, Entry<S>>();
  private readonly members = new Map<string, Entry<M>>();
  /** The session keys of each user, to drop them by user id. */
  private readonly keysByUser = new Map<string, Set<string>>();
  private generation = 0;
  private listening = false;
  readonly stats: GuardCacheStats = { hits: 0, misses: 0, invalidations: 0 };

  constructor(options: GuardCacheOptions) {
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.ttlMs > 0 && this.listening;
  }

  get size(): { sessions: number; members: number } {
    return { sessions: this.sessions.size, members: this.members.size };
  }

  /** Whether anything of this user is kept (tests). */
  holds(userId: string): boolean {
    return this.members.has(userId) || (this.keysByUser.get(userId)?.size ?? 0) > 0;
  }

  setListening(listening: boolean): void {
    // Notifications may have been missed while the listener was down: start empty.
    if (listening !== this.listening) this.clear();
    this.listening = listening;
  }

  /**
   * The session behind `key`, from the cache or from `load` (stored when it is a session and no
   * invalidation happened meanwhile). `expiresAt`: the session's own expiry.
   */
  async session(key: string | null, load: () => Promise<{ userId: string; value: S; expiresAt: Date } | null>): Promise<S | null> {
    if (!key || !this.enabled) return (await load())?.value ?? null;
    const hit = this.fresh(this.sessions, key);
    if (hit) return hit.value;
    this.stats.misses++;
    const generation = this.generation;
    const loaded = await load();
    if (!loaded) return null;
    if (generation === this.generation && this.enabled) {
      const expires = Math.min(this.now() + this.ttlMs, loaded.expiresAt.getTime());
      this.store(this.sessions, key, { userId: loaded.userId, value: loaded.value, expires });
      let keys = this.keysByUser.get(loaded.userId);
      if (!keys) this.keysByUser.set(loaded.userId, (keys = new Set()));
      keys.add(key);
    }
    return loaded.value;
  }

  /** The member data of a user (profile, admin role), from the cache or from `load`. */
  async member(userId: string, load: () => Promise<M>): Promise<M> {
    if (!this.enabled) return load();
    const hit = this.fresh(this.members, userId);
    if (hit) return hit.value;
    this.stats.misses++;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation && this.enabled) {
      this.store(this.members, userId, { userId, value, expires: this.now() + this.ttlMs });
    }
    return value;
  }

  /** A notification's payload: '*' or user ids separated by commas. */
  applyNotification(payload: string): void {
    if (payload === "*" || payload === "") this.clear();
    else for (const id of payload.split(",")) this.invalidateUser(id);
  }

  invalidateUser(userId: string): void {
    this.generation++;
    this.stats.invalidations++;
    this.members.delete(userId);
    const keys = this.keysByUser.get(userId);
    if (keys) for (const key of keys) this.sessions.delete(key);
    this.keysByUser.delete(userId);
  }

  clear(): void {
    this.generation++;
    this.stats.invalidations++;
    this.sessions.clear();
    this.members.clear();
    this.keysByUser.clear();
  }

  private fresh<V>(map: Map<string, Entry<V>>, key: string): Entry<V> | undefined {
    const entry = map.get(key);
    if (!entry) return undefined;
    map.delete(key);
    if (entry.expires <= this.now()) {
      if (map === (this.sessions as Map<string, unknown>)) this.keysByUser.get(entry.userId)?.delete(key);
      return undefined;
    }
    map.set(key, entry); // most recently used last
    this.stats.hits++;
    return entry;
  }

  private store<V>(map: Map<string, Entry<V>>, key: string, entry: Entry<V>) {
    map.delete(key);
    map.set(key, entry);
    while (map.size > this.maxEntries) {
      const [oldest, old] = map.entries().next().value as [string, Entry<V>];
      map.delete(oldest);
      if (map === (this.sessions as Map<string, unknown>)) {
        const keys = this.keysByUser.get(old.userId);
        keys?.delete(oldest);
        if (keys && keys.size === 0) this.keysByUser.delete(old.userId);
      }
    }
  }
}

export type SessionGuardCache = GuardCache<unknown, unknown>;

let instanceCache: SessionGuardCache | undefined;

/** The instance's cache, when server.ts created one (SESSION_CACHE_TTL_MS > 0). */
export function getGuardCache(): SessionGuardCache | undefined {
  return instanceCache;
}

export function setGuardCache(cache: SessionGuardCache | undefined): void {
  instanceCache = cache;
}

/** A statement of this instance wrote the guards' tables: nothing cached is trusted any more. */
export function guardTablesWritten(): void {
  instanceCache?.clear();
}
