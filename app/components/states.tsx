// The three states every list and panel has besides its content: nothing yet, on the way, failed.
import { AlertTriangle, Inbox, type LucideIcon } from "lucide-react";
import { PageContainer } from "./page";
import { cn } from "~/lib/utils";

/** Nothing to show yet: what this place is for, and the one action that fills it. */
export function EmptyState({
  icon: Icon = Inbox,
  title,
  description,
  action,
  className,
}: {
  icon?: LucideIcon;
  title: string;
  description?: React.ReactNode;
  action?: React.ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("flex flex-col items-center gap-2 rounded-lg border border-dashed px-card py-10 text-center", className)} data-slot="empty-state">
      <Icon className="h-6 w-6 text-muted-foreground" aria-hidden="true" />
      <p className="text-section font-medium">{title}</p>
      {description ? <p className="max-w-md text-body text-muted-foreground">{description}</p> : null}
      {action ? <div className="mt-2">{action}</div> : null}
    </div>
  );
}

/** Content on the way: grey rows in the shape of what comes, announced once to screen readers. */
export function LoadingState({ label = "Chargement…", rows = 3, className }: { label?: string; rows?: number; className?: string }) {
  return (
    <div className={cn("flex flex-col gap-2", className)} aria-busy="true" role="status" data-slot="loading-state">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="h-10 animate-pulse rounded-md bg-muted motion-reduce:animate-none" aria-hidden="true" />
      ))}
    </div>
  );
}

/** A part of the page that failed: what happened in French, and a way to try again. */
export function ErrorState({
  title = "Impossible d’afficher cette partie",
  message,
  action,
  className,
}: {
  title?: string;
  message?: React.ReactNode;
  action?: React.ReactNode;
  className?: string;
}) {
  return (
    <div role="alert" className={cn("flex items-start gap-3 rounded-lg border border-status-risk/30 bg-status-risk-soft px-card py-3 text-status-risk", className)} data-slot="error-state">
      <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <div className="flex flex-col gap-1">
        <p className="text-body font-semibold">{title}</p>
        {message ? <p className="text-body">{message}</p> : null}
        {action ? <div className="mt-1">{action}</div> : null}
      </div>
    </div>
  );
}

/** A page's error boundary: the error state in the page's container (what could not be shown, and why in a line). */
export function PageError({ title, message }: { title: string; message: string }) {
  return (
    <PageContainer className="py-6">
      <ErrorState title={title} message={message} />
    </PageContainer>
  );
}
