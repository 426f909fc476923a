// The bell of the member frame: the unread count, live, and the latest notifications in a panel.
// Without JavaScript it is a link to the notifications page.
import { Bell } from "lucide-react";
import { Popover } from "radix-ui";
import { useState } from "react";
import { Link } from "react-router";
import { useHydrated } from "~/lib/use-hydrated";
import { bellLabel, unreadBadge, type NotificationState } from "../notification-rules";
import { NOTIFICATIONS_PATH } from "../notifications.schema";
import { useLiveNotifications } from "./live-notifications";
import { MarkAllRead, NotificationList } from "./notification-list";

const BELL_CLASS =
  "relative inline-flex h-10 w-10 items-center justify-center rounded-md border border-input bg-background hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring";

function Count({ unread }: { unread: number }) {
  const badge = unreadBadge(unread);
  return badge ? (
    <span
      className="absolute -right-1.5 -top-1.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs font-semibold leading-5 text-white"
      data-testid="notification-count"
      aria-hidden="true"
    >
      {badge}
    </span>
  ) : null;
}

export function NotificationBell({ initial }: { initial: NotificationState }) {
  const state = useLiveNotifications(initial);
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const label = bellLabel(state.unread);
  const status = (
    <span className="sr-only" role="status" data-testid="notification-status">
      {label}
    </span>
  );
  if (!hydrated) {
    return (
      <Link to={NOTIFICATIONS_PATH} className={BELL_CLASS} aria-label={label} data-testid="notification-bell">
        <Bell className="h-5 w-5" aria-hidden="true" />
        <Count unread={state.unread} />
      </Link>
    );
  }
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger className={BELL_CLASS} aria-label={label} data-testid="notification-bell">
        <Bell className="h-5 w-5" aria-hidden="true" />
        <Count unread={state.unread} />
      </Popover.Trigger>
      {status}
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={8}
          collisionPadding={8}
          className="z-50 flex max-h-[min(32rem,80vh)] w-[min(24rem,calc(100vw-1rem))] flex-col rounded-lg border bg-background shadow-lg"
          aria-label="Notifications"
        >
          <div className="flex flex-wrap items-center justify-between gap-2 border-b px-3 py-2">
            <h2 className="text-base font-semibold">Notifications</h2>
            <MarkAllRead disabled={state.unread === 0} />
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto">
            <NotificationList items={state.items.slice(0, 10)} onOpen={() => setOpen(false)} />
          </div>
          <div className="border-t px-3 py-2 text-sm">
            <Link to={NOTIFICATIONS_PATH} className="text-primary underline-offset-4 hover:underline" onClick={() => setOpen(false)}>
              Voir toutes les notifications
            </Link>
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
