// Guards used by every loader and action (DESIGN §4.1). A failed lookup counts as "no", except
// when the database is unreachable: that is an outage (503), not a signed-out visitor.
import { and, eq, sql } from "drizzle-orm";
import { data, redirect } from "react-router";
import { db } from "~/db/client.server";
import { guestAccounts, profiles, user, userRoles } from "~/db/schema";
import { isDatabaseUnavailable } from "~/lib/availability.server";
import { logger } from "~/lib/logger.server";
import { getCache, type Cache } from "~/lib/cache.server";
import { currentRequestScope, oncePerRequest } from "~/lib/request-scope.server";
import { hasSessionCookie, sessionCacheKey } from "~/lib/session-cookie.server";
import { getAuth } from "./auth.server";

export type SessionUser = { id: string; email: string; emailVerified: boolean; twoFactorEnabled: boolean };

type RequestMember = { profile: Profile | null; isAdmin: boolean; isGuest: boolean };

/**
 * The instance's short caches of guard results (app/lib/cache.server.ts), for
 * read-only requests only: a POST's loaders must see what its action changed. Entries carry
 * "user:<id>", which the writes to that user's session, account, profile or roles drop.
 */
function readOnlyGuardCache<V>(name: "guard-sessions" | "guard-members"): Cache<V> | undefined {
  if (!currentRequestScope()?.readOnly) return undefined;
  return getCache<V>(name);
}

/** A signed-in request's user and the id of the session it came with. */
type SessionRecord = { user: SessionUser; sessionId: string };

function getSessionRecord(request: Request): Promise<SessionRecord | null> {
  const cookie = request.headers.get("cookie");
  // No session cookie, no session: better-auth would answer null after its endpoint's work.
  if (!hasSessionCookie(cookie)) return Promise.resolve(null);
  return oncePerRequest(`session:${cookie ?? ""}`, async () => {
    const cache = readOnlyGuardCache<SessionRecord>("guard-sessions");
    const key = cache ? sessionCacheKey(cookie) : null;
    const kept = key ? cache?.lookup(key) : undefined;
    if (kept?.value) return kept.value;
    const loaded = await readSessionUser(request);
    // Only sessions are kept, never "no session", and never past the session's own expiry.
    if (loaded && key && kept) cache?.store(key, loaded.value, kept.generation, { tags: [`user:${loaded.value.user.id}`], ttlMs: loaded.expiresAt.getTime() - Date.now() });
    return loaded?.value ?? null;
  });
}

export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  return (await getSessionRecord(request))?.user ?? null;
}

/** The id of the session the request came with, from the same lookup as the guards'. */
export async function getRequestSessionId(request: Request): Promise<string | null> {
  return (await getSessionRecord(request))?.sessionId ?? null;
}

/**
 * The profile of a user and whether they are an admin, in one statement, read once per page
 * request (app/lib/request-scope.server.ts): the root asks for the role, the member pages' guards
 * for the profile.
 */
function getRequestMember(userId: string): Promise<RequestMember> {
  return oncePerRequest(`member:${userId}`, async () => {
    const cache = readOnlyGuardCache<RequestMember>("guard-members");
    const kept = cache?.lookup(userId);
    if (kept?.value) return kept.value;
    const member = await readRequestMember(userId);
    if (kept) cache?.store(userId, member, kept.generation, { tags: [`user:${userId}`] });
    return member;
  });
}

/** Frozen: with the guard cache, one object serves several requests. */
async function readRequestMember(userId: string): Promise<RequestMember> {
  const rows = await db
    .select({
      profile: profiles,
      isAdmin: sql<boolean>`exists (select 1 from ${userRoles} where ${userRoles.userId} = ${user.id} and ${userRoles.role} = 'admin')`,
      isGuest: sql<boolean>`exists (select 1 from ${guestAccounts} where ${guestAccounts.userId} = ${user.id})`,
    })
    .from(user)
    .leftJoin(profiles, eq(profiles.userId, user.id))
    .where(eq(user.id, userId))
    .limit(1);
  const row = rows[0];
  return { profile: row?.profile ? Object.freeze(row.profile) : null, isAdmin: row?.isAdmin === true, isGuest: row?.isGuest === true };
}

/** The profile of a user, read once per page request. */
export async function getRequestProfile(userId: string): Promise<Profile | null> {
  return (await getRequestMember(userId)).profile;
}

/** Whether a user is an admin, read once per page request. A failed lookup is a "no", except an outage. */
export async function getRequestIsAdmin(userId: string): Promise<boolean> {
  try {
    return (await getRequestMember(userId)).isAdmin;
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    logger.warn({ err: error }, "admin check failed");
    return false;
  }
}

async function readSessionUser(request: Request): Promise<{ value: SessionRecord; expiresAt: Date } | null> {
  try {
    const result = await getAuth().api.getSession({ headers: request.headers });
    if (!result) return null;
    const u = result.user as typeof result.user & { twoFactorEnabled?: boolean | null };
    const sessionUser = Object.freeze({ id: u.id, email: u.email, emailVerified: u.emailVerified, twoFactorEnabled: Boolean(u.twoFactorEnabled) });
    return { value: Object.freeze({ user: sessionUser, sessionId: result.session.id }), expiresAt: new Date(result.session.expiresAt) };
  } catch (error) {
    // No database: a 503 page (entry.server), not a signed-out member sent to the sign-in page.
    await rethrowIfOutage(error);
    logger.warn({ err: error }, "session lookup failed");
    return null;
  }
}

/** Rethrows when the database is unreachable. better-auth reports a failed session read without
 * its cause (FAILED_TO_GET_SESSION): then the database itself is asked. */
async function rethrowIfOutage(error: unknown): Promise<void> {
  if (isDatabaseUnavailable(error)) throw error;
  const probe = await db.execute(sql`select 1`).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (probe !== undefined && isDatabaseUnavailable(probe)) throw probe;
}

export async function isAdmin(userId: string): Promise<boolean> {
  try {
    const rows = await db
      .select({ id: userRoles.id })
      .from(userRoles)
      .where(and(eq(userRoles.userId, userId), eq(userRoles.role, "admin")))
      .limit(1);
    return rows.length === 1;
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    logger.warn({ err: error }, "admin check failed");
    return false;
  }
}

export async function getProfileByUserId(userId: string) {
  const rows = await db.select().from(profiles).where(eq(profiles.userId, userId)).limit(1);
  return rows[0] ?? null;
}

export type Profile = NonNullable<Awaited<ReturnType<typeof getProfileByUserId>>>;

function isMutation(request: Request) {
  return request.method !== "GET" && request.method !== "HEAD";
}

/** Whether a user is a guest account of a collaboration file, read once per page request. */
export async function getRequestIsGuest(userId: string): Promise<boolean> {
  return (await getRequestMember(userId)).isGuest;
}

/** Where a guest account lives: the files it was admitted to. */
export const GUEST_HOME_PATH = "/dossiers-partages";

/**
 * Signed in, or sent to /auth (403 for a mutation: no redirect dance for a POST). A guest account
 * reaches only the pages that say `guests: true`; elsewhere it is sent to its files.
 */
export async function requireUser(request: Request, options: { guests?: boolean } = {}): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) {
    if (isMutation(request)) throw data({ message: "Authentification requise" }, { status: 401 });
    throw redirect("/auth");
  }
  if (!options.guests && (await getRequestIsGuest(user.id))) {
    if (isMutation(request)) throw data({ message: "Accès réservé aux membres du réseau" }, { status: 403 });
    throw redirect(GUEST_HOME_PATH);
  }
  return user;
}

export async function requireAnonymous(request: Request, to = "/onboarding") {
  const user = await getSessionUser(request);
  if (user) throw redirect(to);
}

/** A validated, non-suspended member; others go to /onboarding (or /auth when signed out). */
export async function requireMember(request: Request): Promise<{ user: SessionUser; profile: Profile }> {
  const user = await requireUser(request);
  const profile = await getRequestProfile(user.id);
  if (!profile || profile.profileStatus !== "validated") {
    if (isMutation(request)) throw data({ message: "Accès réservé aux membres validés" }, { status: 403 });
    throw redirect("/onboarding");
  }
  return { user, profile };
}

/** An admin (a user_roles row with role admin). Others: redirect to / for pages, 403 for actions. */
export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user || !(await getRequestIsAdmin(user.id))) {
    if (isMutation(request)) throw data({ message: "Accès refusé" }, { status: 403 });
    throw redirect("/");
  }
  return user;
}

/** Where an administrator without two-factor authentication is sent to enrol. */
export const ADMIN_TWO_FACTOR_ENROL_PATH = "/parametres/securite?admin=1";

/**
 * requireAdmin, plus a second factor: an admin whose account has no authenticator app (TOTP)
 * is sent to the settings page to enrol (pages) or refused with a 403 (mutations).
 */
export async function requireAdminWithTwoFactor(request: Request): Promise<SessionUser> {
  const user = await requireAdmin(request);
  if (!user.twoFactorEnabled) {
    if (isMutation(request)) {
      throw data(
        { message: "Les administrateurs doivent activer la double authentification pour accéder à l’administration." },
        { status: 403 },
      );
    }
    throw redirect(ADMIN_TWO_FACTOR_ENROL_PATH);
  }
  return user;
}
