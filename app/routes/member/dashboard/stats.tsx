import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import { can } from "~/auth/permissions";
import { requireMember } from "~/auth/session.server";
import { ErrorState } from "~/components/states";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { ChartsSection, ClosingStatisticsSection, MandateStatisticsSection } from "~/features/mandates/components/statistics-sections";
import { mandateActor } from "~/features/mandates/mandates.server";
import { getStatisticsPage } from "~/features/mandates/statistics.server";
import { logger } from "~/lib/logger.server";
import type { Route } from "./+types/stats";
import { atEdge } from "~/lib/errors/http";

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  const { profile } = await requireMember(request);
  const charted = can(profile.membershipType, "statistics");
  // One statement for the whole tab; a failed lookup shows the empty states, not an error page
  // (spec §8).
  const page = await getStatisticsPage(mandateActor(profile), charted).catch((error: unknown) => {
    logger.warn({ err: error }, "mandate statistics failed");
    return null;
  });
  return { stats: page?.stats ?? null, closings: page?.closings ?? null, charts: page?.charts ?? null, charted };
});

export default function StatsTab({ loaderData }: Route.ComponentProps) {
  const { stats, closings, charts, charted } = loaderData;
  return (
    <section aria-labelledby="tab-title" className="grid gap-8">
      <div>
        <h2 id="tab-title" className="text-xl font-semibold">
          Statistiques
        </h2>
        <p className="text-sm text-muted-foreground">Le suivi de vos mandats et de vos mises en relation.</p>
      </div>
      {stats ? (
        <MandateStatisticsSection stats={stats} />
      ) : (
        <ErrorState message="Vos statistiques de mandats ne sont pas disponibles pour le moment." />
      )}
      {closings ? (
        <ClosingStatisticsSection closings={closings} />
      ) : (
        <ErrorState message="Les statistiques de vos rapprochements ne sont pas disponibles pour le moment." />
      )}
      {charted ? (
        charts ? (
          <ChartsSection charts={charts} />
        ) : (
          <ErrorState message="Les graphiques ne sont pas disponibles pour le moment." />
        )
      ) : (
        <Card className="border-amber-300 bg-amber-50">
          <CardContent className="flex flex-wrap items-center justify-between gap-4 p-4">
            <div>
              <h3 className="font-semibold">Graphiques d’activité</h3>
              <p className="text-sm text-muted-foreground">
                L’évolution de vos mandats et de vos mises en relation est réservée aux membres Premium et fondateurs.
              </p>
            </div>
            <Button asChild variant="accent">
              <Link to="/premium">
                Découvrir Premium
                <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
          </CardContent>
        </Card>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <section aria-labelledby="tab-title" className="grid gap-4">
      <h2 id="tab-title" className="text-xl font-semibold">
        Statistiques
      </h2>
      <ErrorState message="Ces informations ne sont pas disponibles pour le moment. Veuillez réessayer dans un instant." />
    </section>
  );
}
