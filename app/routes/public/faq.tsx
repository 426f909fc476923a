import { UpcomingPage } from "~/components/page";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/faq";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Questions fréquentes");

export default function Page() {
  return <UpcomingPage title="Questions fréquentes" />;
}
