import { data, useRouteLoaderData } from "react-router";
import {
  EngagementsSection,
  ExpertsSection,
  FiguresSection,
  FounderSection,
  LandingHero,
  OwnersSection,
  ValuesSection,
} from "~/features/membership/components/landing-sections";
import { getFoundingPlacesLeft } from "~/features/membership/membership.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/landing";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(
    matches,
    "",
    "Le réseau confidentiel des professionnels de la transmission d’entreprises et de commerces\u00a0: mandats exclusifs, mise en relation acquéreurs-cédants, confrères cooptés.",
  );

export const loader = atEdge(async function loader() {
  // Public page: no guard. Remaining founding places (spec §9), computed on the server; null
  // when the count cannot be read, and the figure is then omitted (never an invented one).
  const places = await getFoundingPlacesLeft();
  // A page without the figure is never kept by the page cache (app/lib/page-cache.server.ts).
  return data({ places }, places === null ? { headers: { "Cache-Control": "no-store" } } : undefined);
});

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function Landing({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData("root") as { appName?: string } | undefined;
  const appName = root?.appName ?? "Réseau Transmission";

  return (
    <>
      <LandingHero />
      <ExpertsSection appName={appName} />
      <OwnersSection />
      <ValuesSection />
      <EngagementsSection appName={appName} />
      <FiguresSection />
      <FounderSection places={loaderData.places} />
    </>
  );
}
