import { ArrowLeft } from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import { cn } from "~/lib/utils";
import { Button } from "~/components/ui/button";

export function PageContainer({ className, ...props }: React.ComponentProps<"div">) {
  return <div className={cn("mx-auto w-full max-w-6xl px-4 py-10", className)} {...props} />;
}

export function PageTitle({ className, ...props }: React.ComponentProps<"h1">) {
  return <h1 className={cn("text-3xl font-bold tracking-tight text-primary md:text-4xl", className)} {...props} />;
}

/** The outline button that closes a panel or leaves a form, keeping the page's scroll. */
export function DismissLink({ to, label }: { to: string; label: "Fermer" | "Annuler" }) {
  return (
    <Button asChild variant="outline">
      <Link to={to} preventScrollReset>
        {label}
      </Link>
    </Button>
  );
}

export function BackLink({ to = "/", label = "Retour" }: { to?: string; label?: string }) {
  return (
    <Link to={to} className="mb-6 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
      <ArrowLeft className="h-4 w-4" aria-hidden="true" />
      {label}
    </Link>
  );
}

/** A screen whose full content is not built yet: it says so plainly, in French. */
export function UpcomingPage({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <PageContainer className="max-w-3xl">
      <PageTitle>{title}</PageTitle>
      <div className="mt-4 space-y-3 text-muted-foreground">
        {children ?? <p>Cette page sera disponible très prochainement.</p>}
      </div>
    </PageContainer>
  );
}

/**
 * The application's page (docs/design-system.md): the width and gutters of every signed-in page.
 * `wide` for tables of records, the default for forms and reading.
 */
export function AppPage({ className, wide = true, ...props }: React.ComponentProps<"div"> & { wide?: boolean }) {
  return (
    <div
      className={cn("mx-auto flex w-full flex-col gap-stack px-gutter py-6 md:px-gutter-wide", wide ? "max-w-6xl" : "max-w-3xl", className)}
      data-slot="app-page"
      {...props}
    />
  );
}

/**
 * The page template's head: the title, one line saying what the page is for, the page's one
 * primary action and its other actions in a menu (ActionMenu). `children` holds what sits under
 * the title on the page's own terms (tabs, a status line).
 */
export function PageHeader({
  title,
  description,
  primary,
  secondary,
  back,
  badge,
  children,
  className,
  titleId,
  level = 1,
}: {
  title: React.ReactNode;
  description?: React.ReactNode;
  /** The view's one primary action (a Button, variant default). */
  primary?: React.ReactNode;
  /** The others: an ActionMenu, or one or two outline buttons when there is room. */
  secondary?: React.ReactNode;
  back?: { to: string; label: string };
  badge?: React.ReactNode;
  children?: React.ReactNode;
  className?: string;
  titleId?: string;
  /** 2 inside a layout whose h1 names the space (the dashboard's « Espace membre »). */
  level?: 1 | 2;
}) {
  const Heading = level === 1 ? "h1" : "h2";
  return (
    <header className={cn("flex flex-col gap-3 border-b pb-4", className)} data-slot="page-header">
      {back ? (
        <Link to={back.to} className="inline-flex w-fit items-center gap-1 text-body text-muted-foreground hover:text-foreground">
          <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          {back.label}
        </Link>
      ) : null}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <Heading id={titleId} className="text-page font-semibold tracking-tight text-foreground">
              {title}
            </Heading>
            {badge}
          </div>
          {description ? <p className="max-w-prose text-body text-muted-foreground">{description}</p> : null}
        </div>
        {primary || secondary ? (
          <div className="flex flex-wrap items-center gap-2" data-slot="page-actions">
            {secondary}
            {primary}
          </div>
        ) : null}
      </div>
      {children}
    </header>
  );
}
