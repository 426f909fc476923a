import type { LucideIcon } from "lucide-react";
import { useEffect, useRef } from "react";
import { NavLink, useLocation } from "react-router";
import { cn } from "~/lib/utils";

export type Tab = { to: string; label: string; icon: LucideIcon; end?: boolean };

/**
 * Tabs as links, so that each tab has its own URL (reload, back button, sharing). `side`: a
 * column beside the content on wide screens (a settings menu), a bar above it on a phone.
 */
export function TabNav({ label, tabs, side = false, className }: { label: string; tabs: readonly Tab[]; side?: boolean; className?: string }) {
  const nav = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  // On a phone the bar scrolls sideways: bring the active tab into view (horizontally only, so
  // that the page itself does not jump).
  useEffect(() => {
    const bar = nav.current;
    const active = bar?.querySelector<HTMLElement>("[aria-current=page]");
    if (!bar || !active) return;
    const left = active.offsetLeft - bar.offsetLeft;
    const right = left + active.offsetWidth;
    if (left < bar.scrollLeft || right > bar.scrollLeft + bar.clientWidth) {
      bar.scrollLeft = Math.max(0, left - (bar.clientWidth - active.offsetWidth) / 2);
    }
  }, [pathname]);
  return (
    <nav ref={nav} aria-label={label} className={cn("overflow-x-auto", side ? "lg:overflow-visible" : "mt-4", className)}>
      <ul className={cn("flex min-w-max gap-1 rounded-lg bg-muted p-1", side && "lg:min-w-0 lg:flex-col lg:bg-transparent lg:p-0")}>
        {tabs.map((tab) => (
          <li key={tab.to}>
            <NavLink
              to={tab.to}
              end={tab.end}
              prefetch="intent"
              className={({ isActive }) =>
                cn(
                  "flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:text-foreground",
                  isActive && "bg-background text-foreground shadow-sm",
                  side && isActive && "lg:bg-muted lg:shadow-none",
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
  );
}
