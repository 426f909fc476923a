// After each test of a file, every row of the audit journal is a declared action in its declared
// shape; at the end of the file, at least one row was checked (the check cannot pass vacuously).
import { afterAll, afterEach, expect } from "vitest";
import type { Db } from "~/db/client.server";
import { auditLog } from "~/db/schema";
import { AUDIT_EVENTS, isAuditAction } from "~/lib/audit/audit-events";

export function checkAuditEvents(t: { db?: Db }): void {
  const seen = new Set<number>();
  afterEach(async () => {
    const rows = await t.db!.select({ id: auditLog.id, action: auditLog.action, targetType: auditLog.targetType, details: auditLog.details }).from(auditLog);
    for (const row of rows) {
      seen.add(row.id);
      expect(isAuditAction(row.action), row.action).toBe(true);
      if (!isAuditAction(row.action)) continue;
      expect(row.targetType).toBe(AUDIT_EVENTS[row.action].targetType);
      const parsed = AUDIT_EVENTS[row.action].details.safeParse(row.details);
      expect(parsed.success, `${row.action} ${JSON.stringify(row.details)}`).toBe(true);
    }
  });
  afterAll(() => {
    expect(seen.size).toBeGreaterThan(0);
  });
}
