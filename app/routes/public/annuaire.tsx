import { UpcomingPage } from "~/components/page";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/annuaire";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Annuaire des professionnels agréés");

export default function Page() {
  return <UpcomingPage title="Annuaire des professionnels agréés" />;
}
