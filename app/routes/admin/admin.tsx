import { UpcomingPage } from "~/components/page";
import { requireAdmin } from "~/auth/session.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/admin";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Administration");

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

export default function Page() {
  return <UpcomingPage title="Administration" />;
}
