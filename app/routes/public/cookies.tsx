import { UpcomingPage } from "~/components/page";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/cookies";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Politique de cookies");

export default function Page() {
  return <UpcomingPage title="Politique de cookies" />;
}
