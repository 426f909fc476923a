// Fixed-window counters stored in PostgreSQL so that every instance shares them.
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { getEnv } from "./env.server";

export type RateLimitRule = { limit: number; windowSeconds: number };

export const RATE_LIMITS = {
  signInIp: { limit: 20, windowSeconds: 15 * 60 },
  /** Unknown devices (no valid device cookie for the login), all together. */
  signInAccount: { limit: 8, windowSeconds: 15 * 60 },
  /** One browser holding a valid device cookie for the login (app/auth/device-cookie.server.ts). */
  signInDevice: { limit: 10, windowSeconds: 15 * 60 },
  signUpIp: { limit: 10, windowSeconds: 60 * 60 },
  passwordResetIp: { limit: 10, windowSeconds: 60 * 60 },
  passwordResetAccount: { limit: 3, windowSeconds: 60 * 60 },
  contactIp: { limit: 5, windowSeconds: 60 * 60 },
  messageAccount: { limit: 30, windowSeconds: 60 * 60 },
  matchRequestAccount: { limit: 30, windowSeconds: 60 * 60 },
} satisfies Record<string, RateLimitRule>;

/** Counts one hit; `allowed` is false once the window's limit is exceeded. */
export async function consumeRateLimit(key: string, rule: RateLimitRule, handle?: Db) {
  const limit = rule.limit * getEnv().RATE_LIMIT_SCALE;
  const window = `${rule.windowSeconds} seconds`;
  const rows = await queryRows<{ count: number; window_start: string | Date }>(sql`
    insert into rate_limit_counters (key, window_start, count) values (${key}, now(), 1)
    on conflict (key) do update set
      count = case when rate_limit_counters.window_start < now() - ${window}::interval then 1
                   else rate_limit_counters.count + 1 end,
      window_start = case when rate_limit_counters.window_start < now() - ${window}::interval then now()
                   else rate_limit_counters.window_start end
    returning count, window_start`, handle);
  const row = rows[0];
  const count = Number(row.count);
  const retryAfter = Math.max(
    1,
    Math.ceil((new Date(row.window_start).getTime() + rule.windowSeconds * 1000 - Date.now()) / 1000),
  );
  return { allowed: count <= limit, count, retryAfter };
}

/** The client address as decided by the server (server.ts), never a raw forwarded header. */
export function getClientIp(request: Request) {
  return request.headers.get("x-rt-client-ip") ?? "unknown";
}
