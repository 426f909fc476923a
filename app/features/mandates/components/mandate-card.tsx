// A card of 'Mes Mandats' (spec §2): client code, badges, status, period, type,
// summary, its figures (potential matches as the panel lists them, requests waiting), one primary action — the
// matching — and the others in a menu.
import { Eye, MoreHorizontal, Pause, Pencil, Play, RotateCcw, Trash2, Users } from "lucide-react";
import { useEffect, useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
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
  matchCountLabel,
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
  potentialMatches: number;
  pendingSent: number;
};

function Figure({ value, label, highlight = false }: { value: string; label: string; highlight?: boolean }) {
  return (
    <div className={cn("flex flex-col-reverse justify-end rounded-md border px-3 py-2", highlight && "border-amber-300 bg-amber-50")}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-xl font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

const itemClass =
  "flex w-full items-center gap-2 rounded px-3 py-2 text-left text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring disabled:opacity-50";

/**
 * 'Autres actions': a disclosure (a native <details>, so it opens without JavaScript too);
 * Escape or a click elsewhere closes it, and focus goes back to its button.
 */
function ActionsMenu({ code, children }: { code: string; children: React.ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const onPointer = (event: PointerEvent) => {
      const el = ref.current;
      if (el?.open && event.target instanceof Node && !el.contains(event.target)) el.open = false;
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, []);
  return (
    <details
      ref={ref}
      className="group/menu relative"
      onKeyDown={(event) => {
        const el = ref.current;
        if (event.key === "Escape" && el?.open) {
          event.preventDefault();
          el.open = false;
          el.querySelector("summary")?.focus();
        }
      }}
    >
      <summary className="inline-flex h-9 cursor-pointer list-none items-center gap-2 rounded-md border px-3 text-sm font-medium hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring [&::-webkit-details-marker]:hidden">
        <MoreHorizontal className="h-4 w-4" aria-hidden="true" />
        Autres actions<span className="sr-only"> du mandat {code}</span>
      </summary>
      <ul className="absolute right-0 z-20 mt-1 grid min-w-56 gap-0.5 rounded-md border bg-background p-1 shadow-lg">{children}</ul>
    </details>
  );
}

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
  const statusForm = (intent: string, label: string, icon: React.ReactNode, busy: boolean) => (
    <li>
      <Form method="post" action="/mandates" preventScrollReset>
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="mandateId" value={m.id} />
        <input type="hidden" name="returnTo" value={returnTo} />
        <button type="submit" className={itemClass} disabled={busy}>
          {icon}
          {busy ? "…" : label}
          {the}
        </button>
      </Form>
    </li>
  );
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
            <dt className="text-muted-foreground">{line.label}&nbsp;:</dt>
            <dd className="font-medium">{line.value}</dd>
          </div>
        ))}
      </dl>
      <dl className="grid grid-cols-3 gap-2" aria-label={`Activité du mandat ${m.clientCode}`} data-testid="mandate-figures">
        <Figure value={matchCountLabel(m.potentialMatches)} label="Mandats potentiels" />
        <Figure value={String(m.pendingReceived)} label="Demandes reçues à traiter" highlight={m.pendingReceived > 0} />
        <Figure value={String(m.pendingSent)} label="Demandes envoyées en attente" />
      </dl>
      <div className="mt-auto flex flex-wrap items-center justify-between gap-2 border-t pt-3">
        <Button asChild size="sm" variant="outline">
          <Link to={hrefs.matching} preventScrollReset>
            <Users aria-hidden="true" />
            Matching{of}
          </Link>
        </Button>
        <ActionsMenu code={m.clientCode}>
          <li>
            <Link to={hrefs.details} preventScrollReset className={itemClass}>
              <Eye className="h-4 w-4" aria-hidden="true" />
              Détails{of}
            </Link>
          </li>
          <li>
            <Link to={hrefs.edit} className={itemClass}>
              <Pencil className="h-4 w-4" aria-hidden="true" />
              Modifier{the}
            </Link>
          </li>
          {m.status === "negotiating"
            ? // Back to the search: offered to new matches again.
              statusForm("resume-search", "Remettre en recherche active", <RotateCcw className="h-4 w-4" aria-hidden="true" />, resuming)
            : canToggleStatus(m.status)
              ? statusForm(
                  "toggle-status",
                  m.status === "active" ? "Mettre en veille" : "Réactiver",
                  m.status === "active" ? <Pause className="h-4 w-4" aria-hidden="true" /> : <Play className="h-4 w-4" aria-hidden="true" />,
                  toggling,
                )
              : null}
          <li>
            <Link to={hrefs.remove} preventScrollReset className={cn(itemClass, "text-destructive")}>
              <Trash2 className="h-4 w-4" aria-hidden="true" />
              Supprimer{the}
            </Link>
          </li>
        </ActionsMenu>
      </div>
    </article>
  );
}
