import { UpcomingPage } from "~/components/page";
import { requireMember } from "~/auth/session.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/premium";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Premium");

export async function loader({ request }: Route.LoaderArgs) {
  await requireMember(request);
  return null;
}

export default function Page() {
  return <UpcomingPage title="Premium" />;
}
