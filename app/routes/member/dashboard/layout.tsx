import { Outlet } from "react-router";
import { requireMember } from "~/auth/session.server";
import { AppPage } from "~/components/page";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/layout";
import { keepFrameOnNavigation } from "~/lib/revalidation";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Espace membre"), { name: "robots", content: "noindex" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireMember(request);
  return null;
}

// The frame depends on the member, not on the URL: navigations keep it (app/lib/revalidation.ts).
export const shouldRevalidate = keepFrameOnNavigation;

// The spec's dashboard header (product name, founding badge, sign-out) and its tabs are the
// member space's frame now (routes/member/shell.tsx): the dashboard keeps its title, above each
// page's own header (the page template, level 2).
export default function DashboardLayout() {
  return (
    <AppPage className="gap-1">
      <h1 className="text-caption font-semibold uppercase tracking-wide text-muted-foreground">Espace membre</h1>
      <Outlet />
    </AppPage>
  );
}
