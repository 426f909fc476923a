import { ArrowLeft } from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import { cn } from "~/lib/utils";

export function PageContainer({ className, ...props }: React.ComponentProps<"div">) {
  return <div className={cn("mx-auto w-full max-w-6xl px-4 py-10", className)} {...props} />;
}

export function PageTitle({ className, ...props }: React.ComponentProps<"h1">) {
  return <h1 className={cn("text-3xl font-bold tracking-tight text-primary md:text-4xl", className)} {...props} />;
}

export function BackLink({ to = "/", label = "Retour" }: { to?: string; label?: string }) {
  return (
    <Link to={to} className="mb-6 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
      <ArrowLeft className="h-4 w-4" aria-hidden="true" />
      {label}
    </Link>
  );
}

/** A screen whose full content arrives with a later issue: it says so plainly, in French. */
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
