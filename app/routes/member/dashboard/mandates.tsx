import { ArrowRight, Plus } from "lucide-react";
import { Link } from "react-router";
import { requireMember } from "~/auth/session.server";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { StatusBadge } from "~/features/mandates/components/mandate-badges";
import { effectiveStatus, MANDATE_MESSAGES, MANDATE_TYPE_LABELS, parisToday } from "~/features/mandates/mandate-rules";
import { listMyMandates, mandateActor } from "~/features/mandates/mandates.server";
import { formatDate, plural } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import type { Route } from "./+types/mandates";

const SHOWN = 6;

export async function loader({ request }: Route.LoaderArgs) {
  const { profile } = await requireMember(request);
  const today = parisToday();
  try {
    const all = await listMyMandates(mandateActor(profile));
    const withStatus = all.map((m) => ({ ...m, shown: effectiveStatus(m.status, m.endDate, today) }));
    return {
      error: null,
      counts: {
        total: all.length,
        active: withStatus.filter((m) => m.shown === "active").length,
        onHold: withStatus.filter((m) => m.shown === "on_hold").length,
        expired: withStatus.filter((m) => m.shown === "expired").length,
        negotiating: withStatus.filter((m) => m.shown === "negotiating").length,
        concluded: withStatus.filter((m) => m.shown === "concluded").length,
        pending: all.reduce((s, m) => s + m.pendingReceived, 0),
      },
      // Summary only: the client's identity stays on /mandates.
      mandates: withStatus.slice(0, SHOWN).map((m) => ({
        id: m.id,
        clientCode: m.clientCode,
        mandateType: m.mandateType,
        status: m.shown,
        endDate: m.endDate,
        pendingReceived: m.pendingReceived,
      })),
    };
  } catch (error) {
    logger.error({ err: error }, "dashboard mandates failed");
    return { error: MANDATE_MESSAGES.loadFailed, counts: null, mandates: [] };
  }
}

export default function MandatesTab({ loaderData }: Route.ComponentProps) {
  const { error, counts, mandates } = loaderData;
  return (
    <section aria-labelledby="tab-title" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="tab-title" className="text-xl font-semibold">
          Mes mandats
        </h2>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline" size="sm">
            <Link to="/mandates?nouveau=1">
              <Plus aria-hidden="true" />
              Nouveau mandat
            </Link>
          </Button>
          <Button asChild size="sm">
            <Link to="/mandates">
              Gérer mes mandats
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </div>
      </div>
      {error ? (
        <Alert variant="destructive">
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : counts && counts.total === 0 ? (
        <div className="rounded-lg border border-dashed p-6 text-center">
          <p className="font-semibold">Aucun mandat</p>
          <p className="mt-1 text-sm text-muted-foreground">Créez votre premier mandat pour commencer</p>
        </div>
      ) : counts ? (
        <>
          <p className="text-sm text-muted-foreground">
            {counts.total} {plural(counts.total, "mandat")} : {counts.active} {plural(counts.active, "actif")}, {counts.onHold} en veille,{" "}
            {counts.expired} {plural(counts.expired, "expiré")}
            {counts.negotiating > 0 ? `, ${counts.negotiating} en négociation` : ""}
            {counts.concluded > 0 ? `, ${counts.concluded} ${plural(counts.concluded, "conclu")}` : ""}
            {counts.pending > 0 ? ` — ${counts.pending} ${plural(counts.pending, "demande")} de mise en relation en attente` : ""}.
          </p>
          <ul className="grid gap-2">
            {mandates.map((m) => (
              <li key={m.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border p-3">
                <div>
                  <p className="font-medium">
                    <Link className="hover:underline" to={`/mandates?details=${m.id}`}>
                      {m.clientCode}
                    </Link>
                  </p>
                  <p className="text-xs text-muted-foreground">
                    {MANDATE_TYPE_LABELS[m.mandateType]} · jusqu'au {formatDate(m.endDate)}
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-2">
                  {m.pendingReceived > 0 ? (
                    <Link to={`/mandates?matching=${m.id}`}>
                      <Badge variant="accent">
                        {m.pendingReceived} {plural(m.pendingReceived, "demande")} en attente
                      </Badge>
                    </Link>
                  ) : null}
                  <StatusBadge status={m.status} />
                </div>
              </li>
            ))}
          </ul>
          {counts.total > mandates.length ? (
            <p className="text-sm">
              <Link className="underline" to="/mandates">
                Voir les {counts.total} mandats
              </Link>
            </p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <section aria-labelledby="tab-title" className="grid gap-4">
      <h2 id="tab-title" className="text-xl font-semibold">
        Mes mandats
      </h2>
      <p className="rounded-lg border border-dashed p-6 text-center text-muted-foreground">
        Ces informations ne sont pas disponibles pour le moment. Veuillez réessayer dans un instant.
      </p>
    </section>
  );
}
