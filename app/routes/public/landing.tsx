import { Link } from "react-router";
import { PageContainer } from "~/components/page";
import { Button } from "~/components/ui/button";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/landing";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(
    matches,
    "",
    "Le réseau confidentiel des professionnels de la transmission d'entreprises et de commerces : mandats exclusifs, mise en relation acquéreurs-cédants, confrères cooptés.",
  );

export default function Landing() {
  return (
    <PageContainer className="py-20">
      <section className="max-w-3xl">
        <p className="text-sm font-semibold uppercase tracking-wide text-accent">Réseau de confiance, sur cooptation</p>
        <h1 className="mt-3 text-4xl font-bold tracking-tight text-primary md:text-5xl">
          Le réseau des professionnels de la transmission d'entreprises
        </h1>
        <p className="mt-6 text-lg text-muted-foreground">
          Avocats d'affaires, experts-comptables, notaires, conseils en fusions-acquisitions et évaluateurs partagent
          leurs mandats exclusifs d'acquéreurs et de cédants, en toute confidentialité.
        </p>
        <div className="mt-8 flex flex-wrap gap-3">
          <Button asChild size="lg" variant="accent">
            <Link to="/join-founder">Devenir membre fondateur</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to="/annuaire">Trouver un expert</Link>
          </Button>
        </div>
      </section>
    </PageContainer>
  );
}
