// The one writer of the audit journal, inside the caller's transaction so that the row and the
// change it records commit together.
import type { Db } from "~/db/client.server";
import { auditLog } from "~/db/schema";
import { invalidate } from "~/lib/cache.server";
import { auditEvent, type AuditAction, type AuditDetails } from "./audit-events";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export async function recordAudit<A extends AuditAction>(
  handle: Db | Tx,
  entry: { actorUserId: string; action: A; targetId: string | null; details: AuditDetails<A> },
): Promise<void> {
  const event = auditEvent(entry.action, entry.details);
  invalidate("audit_log");
  await handle.insert(auditLog).values({
    actorUserId: entry.actorUserId,
    action: event.action,
    targetType: event.targetType,
    targetId: entry.targetId,
    details: event.details as Record<string, unknown>,
  });
}
