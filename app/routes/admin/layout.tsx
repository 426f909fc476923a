import { ClipboardList, FileCheck2, ScrollText, Users } from "lucide-react";
import { NavLink, Outlet } from "react-router";
import { PageContainer, PageTitle } from "~/components/page";
import { requireAdminAccess } from "~/features/admin/admin-access.server";
import { pageMeta } from "~/lib/meta";
import { cn } from "~/lib/utils";
import type { Route } from "./+types/layout";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Administration"), { name: "robots", content: "noindex" }];

export async function loader({ request }: Route.LoaderArgs) {
  // Each child loader and action checks again: nested loaders run in parallel.
  await requireAdminAccess(request);
  return null;
}

// The three tabs of spec §2 "Admin", then the audit log; each has its own URL.
const TABS = [
  { to: "/admin", label: "Profils", icon: Users, end: true },
  { to: "/admin/deals", label: "Deals", icon: FileCheck2, end: false },
  { to: "/admin/recommandations", label: "Recommandations", icon: ClipboardList, end: false },
  { to: "/admin/journal", label: "Journal", icon: ScrollText, end: false },
];

export default function AdminLayout() {
  return (
    <PageContainer className="py-8">
      <header className="border-b pb-4">
        <PageTitle>Administration</PageTitle>
        <p className="mt-1 text-sm text-muted-foreground">Validation des profils, des deals certifiés et suivi des recommandations.</p>
      </header>
      <nav aria-label="Sections de l'administration" className="mt-4 overflow-x-auto">
        <ul className="flex min-w-max gap-1 rounded-lg bg-muted p-1">
          {TABS.map((tab) => (
            <li key={tab.to}>
              <NavLink
                to={tab.to}
                end={tab.end}
                prefetch="intent"
                className={({ isActive }) =>
                  cn(
                    "flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:text-foreground",
                    isActive && "bg-background text-foreground shadow-sm",
                  )
                }
              >
                <tab.icon className="h-4 w-4" aria-hidden="true" />
                {tab.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-6">
        <Outlet />
      </div>
    </PageContainer>
  );
}
