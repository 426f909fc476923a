// The blocks the public presentation pages are made of, so that their sections and cards look
// the same everywhere and change in one place.
import type * as React from "react";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { BackLink, PageTitle } from "~/components/page";
import { isLegalPlaceholder, LEGAL_LAST_UPDATED } from "~/lib/legal";

/** A titled section of a presentation page; `id` names its heading for screen readers. */
export function PageSection({ id, title, children }: { id: string; title: React.ReactNode; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-2xl font-bold tracking-tight break-words text-foreground">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A card of a grid: an icon, a title and a short text. */
export function IconCard({ icon: Icon, title, text }: { icon: React.ComponentType<{ className?: string; "aria-hidden"?: boolean | "true" }>; title: React.ReactNode; text: React.ReactNode }) {
  return (
    <Card className="h-full">
      <CardHeader>
        <Icon className="h-8 w-8 text-primary" aria-hidden="true" />
        <h3 className="mt-2 text-lg font-semibold break-words">{title}</h3>
      </CardHeader>
      <CardContent>
        <p className="text-sm text-muted-foreground">{text}</p>
      </CardContent>
    </Card>
  );
}

/** The look of an inline link in the running text of a public page. */
export const textLinkClass = "font-medium text-primary underline underline-offset-2";

/** An operator identifier; still-unset values are highlighted so they cannot go live unnoticed. */
export function LegalIdentifier({ value }: { value: string }) {
  if (!isLegalPlaceholder(value)) return <>{value}</>;
  return <mark className="rounded bg-amber-100 px-1 text-amber-900">{value}</mark>;
}

/** The head of a legal page: the way back, its title and the date of its last revision. */
export function LegalPageHeader({ title }: { title: string }) {
  return (
    <>
      <BackLink to="/" label="Retour" />
      <PageTitle className="break-words">{title}</PageTitle>
      <p className="mt-2 text-sm text-muted-foreground">Dernière mise à jour&nbsp;: {LEGAL_LAST_UPDATED}</p>
    </>
  );
}
