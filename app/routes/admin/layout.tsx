import { ClipboardList, FileCheck2, Scale, ScrollText, Star, Users } from "lucide-react";
import { Outlet } from "react-router";
import { TabNav } from "~/components/tab-nav";
import { PageContainer, PageTitle } from "~/components/page";
import { requireAdminAccess } from "~/features/admin/admin-access.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/layout";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Administration"), { name: "robots", content: "noindex" }];

export async function loader({ request }: Route.LoaderArgs) {
  // Each child loader and action checks again: nested loaders run in parallel.
  await requireAdminAccess(request);
  return null;
}

// The three tabs of spec §2 "Admin", the mediation queue, then the audit log; each has its own URL.
const TABS = [
  { to: "/admin", label: "Profils", icon: Users, end: true },
  { to: "/admin/deals", label: "Transactions", icon: FileCheck2, end: false },
  { to: "/admin/recommandations", label: "Recommandations", icon: ClipboardList, end: false },
  { to: "/admin/mediations", label: "Médiations", icon: Scale, end: false },
  { to: "/admin/evaluations", label: "Évaluations", icon: Star, end: false },
  { to: "/admin/journal", label: "Journal", icon: ScrollText, end: false },
];

export default function AdminLayout() {
  return (
    <PageContainer className="py-8">
      <header className="border-b pb-4">
        <PageTitle>Administration</PageTitle>
        <p className="mt-1 text-sm text-muted-foreground">Validation des profils, des transactions certifiées et suivi des recommandations.</p>
      </header>
      <TabNav label="Sections de l’administration" tabs={TABS} />
      <div className="mt-6">
        <Outlet />
      </div>
    </PageContainer>
  );
}
