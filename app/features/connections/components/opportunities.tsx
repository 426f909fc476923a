// The 'Opportunités' tab of /mandates.
import { Link } from "react-router";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { mandatesHref } from "~/features/mandates/components/urls";
import { MANDATE_TYPE_LABELS } from "~/features/mandates/mandate-rules";
import { CounterpartSummary } from "~/features/matching/components/counterpart-summary";
import { MatchHeader, ScoreBreakdownList } from "~/features/matching/components/score-breakdown";
import type { Opportunity } from "~/features/matching/matching.server";
import type { RequestStatus } from "../connection-rules";
import { RequestStatusBadge } from "./matching-panel";

export type OpportunitiesData = {
  opportunities: Opportunity[] | null;
  sentStatuses: Record<string, string>;
  loadError: string | null;
};

/** 'Opportunités': the best potential matches across the member's active mandates, ranked. */
export function OpportunitiesSection({ d, search }: { d: OpportunitiesData; search: URLSearchParams }) {
  const list = d.opportunities ?? [];
  return (
    <section aria-labelledby="opportunities-title" className="mt-6 grid gap-4">
      <div>
        <h2 id="opportunities-title" className="text-xl font-semibold">
          Opportunités
        </h2>
        <p className="text-sm text-muted-foreground">
          Les mandats du réseau les plus compatibles avec vos mandats actifs, classés par score.
        </p>
      </div>
      {d.loadError ? (
        <Alert variant="destructive">
          <AlertDescription>{d.loadError}</AlertDescription>
        </Alert>
      ) : list.length === 0 ? (
        <div className="rounded-lg border border-dashed p-8 text-center">
          <p className="font-semibold">Aucune opportunité pour le moment</p>
          <p className="mt-1 text-sm text-muted-foreground">
            Les opportunités apparaissent lorsque l’un de vos mandats actifs correspond à un mandat d’un confrère.
          </p>
        </div>
      ) : (
        <ul className="grid gap-3">
          {list.map((o) => {
            const status = d.sentStatuses[`${o.own.id}:${o.match.id}`];
            return (
              <li key={o.match.id} className="grid gap-2 rounded-lg border p-4" data-testid="opportunity">
                <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
                  Pour votre mandat «&nbsp;{o.own.clientCode}&nbsp;» ({MANDATE_TYPE_LABELS[o.own.mandateType].toLowerCase()})
                </p>
                <MatchHeader total={o.match.score.total}>
                  <CounterpartSummary m={o.match} heading="h3" />
                </MatchHeader>
                <ScoreBreakdownList criteria={o.match.criteria} />
                <div className="flex flex-wrap items-center gap-2">
                  {status ? (
                    <p className="flex items-center gap-2 text-sm">
                      Demande envoyée <RequestStatusBadge status={status as RequestStatus} />
                    </p>
                  ) : (
                    <Button asChild size="sm" variant="outline">
                      <Link to={mandatesHref(search, { mandat: o.own.id, demande: o.match.id })} preventScrollReset>
                        Demander une mise en relation
                        <span className="sr-only"> avec le mandat {o.match.clientCode}</span>
                      </Link>
                    </Button>
                  )}
                  <Button asChild size="sm" variant="outline">
                    <Link to={mandatesHref(search, { matching: o.own.id })} preventScrollReset>
                      Rapprochements de «&nbsp;{o.own.clientCode}&nbsp;»
                    </Link>
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

