import { Badge } from "~/components/ui/badge";
import { isBeyondSearch, MANDATE_STATUS_LABELS, mandateExpiry, type MandateStatus } from "../mandate-rules";

const STATUS_VARIANT: Record<MandateStatus, "success" | "warning" | "destructive" | "default" | "secondary"> = {
  active: "success",
  on_hold: "warning",
  expired: "destructive",
  negotiating: "default",
  concluded: "secondary",
};

/** Actif, En veille, Expiré, En négociation, Conclu (the effective status: a past end date shows Expiré). */
export function StatusBadge({ status }: { status: MandateStatus }) {
  return <Badge variant={STATUS_VARIANT[status]}>{MANDATE_STATUS_LABELS[status]}</Badge>;
}

/**
 * Exclusif, Expiré, Expire bientôt (spec §2). A mandate in negotiation or concluded has left the
 * search: its end date no longer matters.
 */
export function MandateFlags({
  isExclusive,
  endDate,
  today,
  status,
  statusShown,
}: {
  isExclusive: boolean;
  endDate: string;
  today: string;
  status?: MandateStatus;
  /** The status badge shown beside the flags: when it already says Expiré, the flag does not repeat it. */
  statusShown?: MandateStatus;
}) {
  const expiry = status && isBeyondSearch(status) ? { expired: false, expiringSoon: false } : mandateExpiry(endDate, today);
  return (
    <>
      {isExclusive ? <Badge variant="secondary">Exclusif</Badge> : null}
      {expiry.expired && statusShown !== "expired" ? <Badge variant="destructive">Expiré</Badge> : null}
      {expiry.expiringSoon ? <Badge variant="accent">Expire bientôt</Badge> : null}
    </>
  );
}
