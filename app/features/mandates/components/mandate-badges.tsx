import { Badge } from "~/components/ui/badge";
import { MANDATE_STATUS_LABELS, mandateExpiry, type MandateStatus } from "../mandate-rules";

const STATUS_VARIANT = { active: "success", on_hold: "warning", expired: "destructive" } as const;

/** Actif, En veille, Expiré (the effective status: a past end date shows Expiré). */
export function StatusBadge({ status }: { status: MandateStatus }) {
  return <Badge variant={STATUS_VARIANT[status]}>{MANDATE_STATUS_LABELS[status]}</Badge>;
}

/** Exclusif, Expiré, Expire bientôt (spec §2). */
export function MandateFlags({ isExclusive, endDate, today }: { isExclusive: boolean; endDate: string; today: string }) {
  const expiry = mandateExpiry(endDate, today);
  return (
    <>
      {isExclusive ? <Badge variant="secondary">Exclusif</Badge> : null}
      {expiry.expired ? <Badge variant="destructive">Expiré</Badge> : null}
      {expiry.expiringSoon ? <Badge variant="accent">Expire bientôt</Badge> : null}
    </>
  );
}
