import { UpcomingPage } from "~/components/page";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/mentions-legales";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Mentions légales");

export default function Page() {
  return <UpcomingPage title="Mentions légales" />;
}
