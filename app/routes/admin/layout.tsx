import { Outlet } from "react-router";
import { AppPage, PageHeader } from "~/components/page";
import { requireAdminAccess } from "~/features/admin/admin-access.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/layout";
import { atEdge } from "~/lib/errors/http";
import { keepFrameOnNavigation } from "~/lib/revalidation";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Administration"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  // Each child loader and action checks again: nested loaders run in parallel.
  await requireAdminAccess(request);
  return null;
});

// The frame depends on the member, not on the URL: navigations keep it (app/lib/revalidation.ts).
export const shouldRevalidate = keepFrameOnNavigation;

// The back office's sections (the spec's three tabs, the mediation queue, the ratings, then the
// audit log) are the navigation of its own frame (components/app-shell, AdminNav); each has its URL.
export default function AdminLayout() {
  return (
    <AppPage>
      <PageHeader title="Administration" description="Validation des profils, des transactions certifiées et suivi des recommandations." />
      <Outlet />
    </AppPage>
  );
}
