import { UpcomingPage } from "~/components/page";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/politique-confidentialite";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Politique de confidentialité");

export default function Page() {
  return <UpcomingPage title="Politique de confidentialité" />;
}
