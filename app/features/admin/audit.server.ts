// The admin audit log: every decision and export of the back office leaves one row, written in
// the same transaction as the change it records. Read-only in the web UI.
import { and, count, eq, sql, type SQL } from "drizzle-orm";
import type { SessionUser } from "~/auth/session.server";
import { db, type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { auditLog, user } from "~/db/schema";
import { cached, getCache, invalidate } from "~/lib/cache.server";
import { AUDIT_PAGE_SIZE, type AuditAction, type AuditQuery } from "./admin.schema";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Executor = Db | Tx;

export type AuditTargetType = "profile" | "deal" | "recommendations" | "rating" | "mediation";

export type AuditEntryInput = {
  action: AuditAction;
  targetType: AuditTargetType;
  targetId?: string | null;
  /** What an admin reads later: "target" is the human label of the target (name, company). */
  details?: Record<string, unknown>;
};

export async function recordAdminAction(handle: Executor, actor: Pick<SessionUser, "id">, entry: AuditEntryInput): Promise<void> {
  invalidate("audit_log");
  await handle.insert(auditLog).values({
    actorUserId: actor.id,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId ?? null,
    details: entry.details ?? {},
  });
}

/** One line of the audit view (explicit projection: no raw row leaves the server). */
export type AuditEntry = {
  id: number;
  createdAt: string;
  action: string;
  adminEmail: string | null;
  /** Who acted: an administrator, a member acting on their own account, or a deleted account. */
  actorRole: "admin" | "member" | "gone";
  targetType: string | null;
  targetId: string | null;
  targetLabel: string | null;
  details: Record<string, unknown>;
};

export type AuditPage = { entries: AuditEntry[]; total: number; page: number; pageCount: number };

/**
 * The journal's total. Unfiltered, it counts the whole log on every view: it reads the key of
 * audit_log_created_idx (index-only, ~1/5 of the table's pages) instead of the table. The
 * order in the subquery is what makes the planner take the index (a bare count(*) chose a Seq
 * Scan of the heap). The cost grows with the log, so the instance keeps the totals (whole log
 * and per action) until the log is written (any instance notifies 'rt_admin_counts' at commit,
 * migration 0019; this instance's own writes drop them at once: app/lib/request-scope.server.ts).
 */
async function countAuditLog(action: string | undefined, where: SQL | undefined): Promise<number> {
  return cached(getCache("admin-totals"), `audit:${action ?? "*"}`, async () => {
    if (where) {
      const [{ n }] = await db.select({ n: count() }).from(auditLog).where(where);
      return Number(n);
    }
    const [row] = await queryRows<{ n: number | string }>(
      sql`select count(*) as n from (select 1 from audit_log order by created_at desc nulls last, id desc nulls last) x`,
    );
    return Number(row?.n ?? 0);
  });
}

export async function listAuditLog(query: AuditQuery): Promise<AuditPage> {
  const where: SQL | undefined = query.action ? and(eq(auditLog.action, query.action)) : undefined;
  const total = await countAuditLog(query.action, where);
  const pageCount = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  const page = Math.min(query.page, pageCount);
  const rows = await db
    .select({
      id: auditLog.id,
      createdAt: auditLog.createdAt,
      action: auditLog.action,
      adminEmail: user.email,
      actorIsAdmin: sql<boolean>`exists (select 1 from user_roles r where r.user_id = ${auditLog.actorUserId} and r.role = 'admin')`,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      details: auditLog.details,
    })
    .from(auditLog)
    .leftJoin(user, eq(user.id, auditLog.actorUserId))
    .where(where)
    // `nulls last` as in audit_log_created_idx (neither is ever null): the page walks it and stops.
    .orderBy(sql`${auditLog.createdAt} desc nulls last`, sql`${auditLog.id} desc nulls last`)
    .limit(AUDIT_PAGE_SIZE)
    .offset((page - 1) * AUDIT_PAGE_SIZE);
  return {
    entries: rows.map((r) => {
      const details = r.details ?? {};
      return {
        id: r.id,
        createdAt: r.createdAt.toISOString(),
        action: r.action,
        adminEmail: r.adminEmail,
        actorRole: r.adminEmail === null ? ("gone" as const) : r.actorIsAdmin ? ("admin" as const) : ("member" as const),
        targetType: r.targetType,
        targetId: r.targetId,
        targetLabel: typeof details.target === "string" ? details.target : null,
        details,
      };
    }),
    total,
    page,
    pageCount,
  };
}
