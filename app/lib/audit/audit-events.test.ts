import { describe, expect, it } from "vitest";
import { AUDIT_EVENTS, AUDIT_TARGET_LABELS, auditActionLabel, auditDetailLines, auditEvent, isAuditAction, type AuditAction, type AuditDetails } from "./audit-events";

// One example per declared action: an action added without a row here fails to compile.
const EXAMPLES: { [A in AuditAction]: AuditDetails<A> } = {
  "profile.validate": { target: "Anne Martin", foundingApplied: true },
  "profile.reject": { target: "Anne Martin", reason: "Carte professionnelle illisible" },
  "profile.suspend": { target: "Anne Martin", reason: "Manquement", sessionsEnded: 2 },
  "profile.reinstate": { target: "Anne Martin" },
  "deal.validate": { target: "Anne Martin (Cabinet M)", deal: "Boulangerie (2025)" },
  "deal.reject": { target: "Anne Martin (Cabinet M)", deal: "Boulangerie (2025)", reason: "Pièce manquante" },
  "recommendations.export_csv": { target: "Recommandations", search: null, count: 12 },
  "recommendations.export_emails": { target: "Recommandations", search: "martin", count: 3 },
  "verification.check": { target: "Anne Martin", step: "identity", stepLabel: "Identité" },
  "verification.uncheck": { target: "Anne Martin", step: "identity", stepLabel: "Identité" },
  "mediation.open": { target: "Anne Martin / Paul Durand", attachments: 1 },
  "mediation.message": { target: "Anne Martin / Paul Durand" },
  "mediation.status": { target: "Anne Martin / Paul Durand", from: "open", to: "in_progress" },
  "mediation.decide": { target: "Anne Martin / Paul Durand", outcome: "resolved", upheld: false, against: null, breachKind: null },
  "rating.hide": { target: "Anne Martin", reason: "Propos injurieux" },
  "rating.keep": { target: "Anne Martin" },
  "account.password_changed": {},
  "account.two_factor_enabled": {},
  "account.two_factor_disabled": {},
  "account.backup_codes_regenerated": {},
  "account.session_revoked": { sessionId: "s1" },
  "account.other_sessions_revoked": {},
  "account.data_exported": {},
  "account.deleted": { profileId: null, anonymisedMessages: 0, deletedMandates: 1, deletedFiles: 0, payments: [{ provider: "stripe", amountCents: 9900 }] },
  "verification.insurance_renewed": { endsOn: "2027-06-30" },
  "verification.evidence_filed": { endsOn: "2027-06-30" },
  "mandate.deleted_with_connection_log": { events: [{ event: "requested", createdAt: "2026-11-01T10:00:00.000Z" }] },
};

describe("audit events: each action declared once", () => {
  it.each(Object.keys(AUDIT_EVENTS) as AuditAction[])("%s: built by the typed builder, labelled, with a known target", (action) => {
    const built = auditEvent(action, EXAMPLES[action] as never);
    expect(built.action).toBe(action);
    expect(AUDIT_TARGET_LABELS[built.targetType]).toBeTruthy();
    expect(isAuditAction(action)).toBe(true);
    expect(auditActionLabel(action)).toBe(AUDIT_EVENTS[action].label);
    expect(auditActionLabel(action)).not.toMatch(/^Autre action/);
  });

  it.each<[AuditAction, unknown]>([
    ["profile.reject", { reason: "Carte illisible" }],
    ["profile.suspend", { target: "Anne Martin", reason: "x", sessionsEnded: -1 }],
    ["account.password_changed", { note: "extra keys are refused" }],
    ["mediation.decide", { target: "x", outcome: "maybe", upheld: true }],
  ])("%s refuses details of the wrong shape", (action, details) => {
    expect(() => auditEvent(action, details as never)).toThrow();
  });

  it("reads unknown actions and details tolerantly", () => {
    expect(auditActionLabel("something.new")).toBe("Autre action (something.new)");
    expect(isAuditAction("something.new")).toBe(false);
    expect(auditDetailLines(null)).toEqual([]);
    expect(auditDetailLines({ reason: "Pièce manquante", sessionsEnded: 2, search: "", count: 4 })).toEqual([
      "Motif\u00a0: Pièce manquante",
      "Sessions fermées\u00a0: 2",
      "Filtre\u00a0: aucun",
      "Lignes exportées\u00a0: 4",
    ]);
  });
});
