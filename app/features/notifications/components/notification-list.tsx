// The list of notifications (the bell's panel and the page): each one opens its link and is
// marked read on the way (a form: works before JavaScript), or is marked read in place.
import { Check } from "lucide-react";
import { Form, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { formatDateTime } from "~/lib/format";
import { cn } from "~/lib/utils";
import { NOTIFICATION_KIND_LABELS, isNotificationKind, type NotificationItem } from "../notification-rules";
import { NOTIFICATIONS_PATH } from "../notifications.schema";

function MarkRead({ id }: { id: string }) {
  const fetcher = useFetcher();
  return (
    <fetcher.Form method="post" action={NOTIFICATIONS_PATH}>
      <input type="hidden" name="intent" value="read" />
      <input type="hidden" name="id" value={id} />
      <Button type="submit" variant="ghost" size="icon" className="h-9 w-9" title="Marquer comme lu" aria-label="Marquer comme lu">
        <Check aria-hidden="true" />
      </Button>
    </fetcher.Form>
  );
}

export function NotificationList({ items, onOpen }: { items: NotificationItem[]; onOpen?: () => void }) {
  if (items.length === 0) {
    return (
      <p className="p-4 text-sm text-muted-foreground" data-testid="notifications-empty">
        Aucune notification pour le moment. Les demandes, messages et décisions qui vous concernent s’afficheront ici.
      </p>
    );
  }
  return (
    <ul className="divide-y" aria-label="Notifications" data-testid="notification-list">
      {items.map((n) => (
        <li key={n.id} className={cn("flex items-start gap-1 px-2 py-1", !n.read && "bg-primary/5")} data-read={n.read}>
          <Form method="post" action={NOTIFICATIONS_PATH} className="min-w-0 flex-1" onSubmit={onOpen}>
            <input type="hidden" name="intent" value="open" />
            <input type="hidden" name="id" value={n.id} />
            <button type="submit" className="w-full rounded-md p-2 text-left hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring">
              <span className="flex items-center gap-2 text-xs text-muted-foreground">
                {!n.read ? <span className="h-2 w-2 shrink-0 rounded-full bg-primary" aria-hidden="true" /> : null}
                {isNotificationKind(n.kind) ? NOTIFICATION_KIND_LABELS[n.kind] : "Notification"} · {formatDateTime(n.createdAt)}
                {!n.read ? <span className="sr-only">(non lue)</span> : null}
              </span>
              <span className={cn("block break-words text-sm", !n.read && "font-semibold")}>{n.title}</span>
              {n.body ? <span className="block break-words text-sm text-muted-foreground">{n.body}</span> : null}
            </button>
          </Form>
          {!n.read ? <MarkRead id={n.id} /> : null}
        </li>
      ))}
    </ul>
  );
}

export function MarkAllRead({ disabled }: { disabled: boolean }) {
  const fetcher = useFetcher();
  return (
    <fetcher.Form method="post" action={NOTIFICATIONS_PATH}>
      <input type="hidden" name="intent" value="read-all" />
      <Button type="submit" variant="link" size="sm" disabled={disabled || fetcher.state !== "idle"}>
        Tout marquer comme lu
      </Button>
    </fetcher.Form>
  );
}
