// The admin audit log: every decision and export of the back office leaves one row, written in
// the same transaction as the change it records. Read-only in the web UI.
import { and, count, eq, sql, type SQL } from "drizzle-orm";
import type { SessionUser } from "~/auth/session.server";
import { db, type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { auditLog, user } from "~/db/schema";
import { cached, getCache } from "~/lib/cache.server";
import type { AuditAction, AuditDetails } from "~/lib/audit/audit-events";
import { recordAudit } from "~/lib/audit/audit.server";
import { AUDIT_PAGE_SIZE, type AuditQuery } from "./admin.schema";

/** A back-office decision or export, in the caller's transaction (the journal's one writer). */
export async function recordAdminAction<A extends AuditAction>(
  handle: Db | Parameters<Parameters<Db["transaction"]>[0]>[0],
  actor: Pick<SessionUser, "id">,
  entry: { action: A; targetId?: string | null; details: AuditDetails<A> },
): Promise<void> {
  await recordAudit(handle, { actorUserId: actor.id, action: entry.action, targetId: entry.targetId ?? null, details: entry.details });
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
