// A card of 'Mes Mandats' (spec §2): client code, badges, status, period, type, summary, actions.
import { Eye, Pause, Pencil, Play, RotateCcw, Trash2, Users } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { formatDate } from "~/lib/format";
import { cn } from "~/lib/utils";
import {
  canToggleStatus,
  cardBorderClass,
  effectiveStatus,
  MANDATE_TYPE_LABELS,
  mandateSummaryLines,
  type MandateStatus,
  type MandateType,
} from "../mandate-rules";
import { MandateFlags, StatusBadge } from "./mandate-badges";

export type MandateCardData = {
  id: string;
  mandateType: MandateType;
  clientCode: string;
  isExclusive: boolean;
  status: MandateStatus;
  startDate: string;
  endDate: string;
  searchSectors: string[] | null;
  searchTerritories: string[] | null;
  targetAmountMin: number | null;
  targetAmountMax: number | null;
  companySector: string | null;
  companyTerritory: string | null;
  valuationAmount: number | null;
  projectTimeline: string | null;
  pendingReceived: number;
};

export function MandateCard({
  m,
  today,
  hrefs,
  returnTo,
}: {
  m: MandateCardData;
  today: string;
  hrefs: { details: string; matching: string; edit: string; remove: string };
  returnTo: string;
}) {
  const navigation = useNavigation();
  const shown = effectiveStatus(m.status, m.endDate, today);
  const pendingIntent = navigation.state !== "idle" && navigation.formData?.get("mandateId") === m.id ? navigation.formData?.get("intent") : null;
  const toggling = pendingIntent === "toggle-status";
  const resuming = pendingIntent === "resume-search";
  const of = <span className="sr-only"> du mandat {m.clientCode}</span>;
  const the = <span className="sr-only"> le mandat {m.clientCode}</span>;
  return (
    <article
      aria-labelledby={`mandate-${m.id}-title`}
      className={cn("flex flex-col gap-3 rounded-lg border border-l-4 bg-background p-4 shadow-sm", cardBorderClass(shown))}
      data-testid="mandate-card"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={`mandate-${m.id}-title`} className="break-words text-lg font-semibold">
            {m.clientCode}
          </h3>
          <p className="text-sm text-muted-foreground">{MANDATE_TYPE_LABELS[m.mandateType]}</p>
        </div>
        <div className="flex flex-wrap items-center gap-1.5">
          <MandateFlags isExclusive={m.isExclusive} endDate={m.endDate} today={today} status={m.status} statusShown={shown} />
          <StatusBadge status={shown} />
        </div>
      </div>
      <p className="text-sm">
        Du {formatDate(m.startDate)} au {formatDate(m.endDate)}
      </p>
      <dl className="grid gap-1 text-sm">
        {mandateSummaryLines(m).map((line) => (
          <div key={line.label} className="flex flex-wrap gap-x-2">
            <dt className="text-muted-foreground">{line.label} :</dt>
            <dd className="font-medium">{line.value}</dd>
          </div>
        ))}
      </dl>
      {m.pendingReceived > 0 ? (
        <p>
          <Badge variant="accent">
            {m.pendingReceived} {m.pendingReceived > 1 ? "demandes en attente" : "demande en attente"}
          </Badge>
        </p>
      ) : null}
      <div className="mt-auto flex flex-wrap gap-2 border-t pt-3">
        <Button asChild variant="outline" size="sm">
          <Link to={hrefs.details} preventScrollReset>
            <Eye aria-hidden="true" />
            Détails{of}
          </Link>
        </Button>
        <Button asChild variant="outline" size="sm">
          <Link to={hrefs.matching} preventScrollReset>
            <Users aria-hidden="true" />
            Matching{of}
          </Link>
        </Button>
        {m.status === "negotiating" ? (
          // Back to the search: offered to new matches again (decision 011).
          <Form method="post" action="/mandates" preventScrollReset>
            <input type="hidden" name="intent" value="resume-search" />
            <input type="hidden" name="mandateId" value={m.id} />
            <input type="hidden" name="returnTo" value={returnTo} />
            <Button type="submit" variant="outline" size="sm" disabled={resuming}>
              <RotateCcw aria-hidden="true" />
              {resuming ? "…" : "Remettre en recherche active"}
              {the}
            </Button>
          </Form>
        ) : canToggleStatus(m.status) ? (
          <Form method="post" action="/mandates" preventScrollReset>
            <input type="hidden" name="intent" value="toggle-status" />
            <input type="hidden" name="mandateId" value={m.id} />
            <input type="hidden" name="returnTo" value={returnTo} />
            <Button type="submit" variant="outline" size="sm" disabled={toggling}>
              {m.status === "active" ? <Pause aria-hidden="true" /> : <Play aria-hidden="true" />}
              {toggling ? "…" : m.status === "active" ? "Mettre en veille" : "Réactiver"}
              {the}
            </Button>
          </Form>
        ) : null}
        <Button asChild variant="outline" size="sm">
          <Link to={hrefs.edit} preventScrollReset>
            <Pencil aria-hidden="true" />
            Modifier{the}
          </Link>
        </Button>
        <Button asChild variant="outline" size="sm" className="text-destructive">
          <Link to={hrefs.remove} preventScrollReset>
            <Trash2 aria-hidden="true" />
            Supprimer{the}
          </Link>
        </Button>
      </div>
    </article>
  );
}
