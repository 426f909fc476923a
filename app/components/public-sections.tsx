// The blocks the public presentation pages are made of, so that their sections and cards look
// the same everywhere and change in one place.
import { ArrowRight, CircleCheck } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
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
export function IconCard({
  icon: Icon,
  title,
  text,
  titleClassName = "mt-2 text-lg font-semibold break-words",
}: {
  icon: React.ComponentType<{ className?: string; "aria-hidden"?: boolean | "true" }>;
  title: React.ReactNode;
  text: React.ReactNode;
  titleClassName?: string;
}) {
  return (
    <Card className="h-full">
      <CardHeader>
        <Icon className="h-8 w-8 text-primary" aria-hidden="true" />
        <h3 className={titleClassName}>{title}</h3>
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

/** An icon card's content, as the presentation pages list them. */
export type IconItem = { icon: React.ComponentType<{ className?: string; "aria-hidden"?: boolean | "true" }>; title: string; text: string };

/** A grid of icon cards; `ordered` when their order is part of the message. */
export function IconCardGrid({ items, className, ordered = false, titleClassName }: { items: IconItem[]; className: string; ordered?: boolean; titleClassName?: string }) {
  const List = ordered ? "ol" : "ul";
  return (
    <List className={className}>
      {items.map((item) => (
        <li key={item.title}>
          <IconCard icon={item.icon} title={item.title} text={item.text} titleClassName={titleClassName} />
        </li>
      ))}
    </List>
  );
}

/** A list of points, each ticked. */
export function CheckList({ items, className, itemClassName = "flex gap-3 text-foreground" }: { items: string[]; className: string; itemClassName?: string }) {
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item} className={itemClassName}>
          <CircleCheck className="mt-0.5 h-5 w-5 shrink-0 text-success" aria-hidden="true" />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}

// Marketing figures of the specification (§1), displayed as they are stated.
const SUPPORT_FIGURES = [
  { value: "85\u00a0%", label: "de taux de réussite des opérations accompagnées" },
  { value: "95\u00a0%", label: "de réussite avec un intermédiaire professionnel, contre 35\u00a0% en vente directe" },
  { value: "×3", label: "de chances de réussite avec un conseil professionnel" },
  { value: "−40\u00a0%", label: "sur le délai de cession" },
  { value: "95\u00a0%", label: "de clients satisfaits" },
  { value: "−50\u00a0%", label: "de temps consacré à la prospection" },
  { value: "+300\u00a0%", label: "de croissance" },
];

/** The specification's figures on professional support, each on a card, then their caveat. */
export function SupportFigures({ className }: { className: string }) {
  return (
    <>
      <ul className={className}>
        {SUPPORT_FIGURES.map((stat) => (
          <li key={stat.value + stat.label}>
            <Card className="h-full">
              <CardContent className="p-4 md:p-6">
                <p className="text-2xl font-bold break-words text-primary md:text-3xl">{stat.value}</p>
                <p className="mt-2 text-sm break-words hyphens-auto text-muted-foreground">{stat.label}</p>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
      <p className="mt-6 text-xs text-muted-foreground">
        Indicateurs donnés à titre informatif&nbsp;; ils ne constituent pas une garantie de résultat.
      </p>
    </>
  );
}

/** The head of a presentation page: its kicker, its title and the lead paragraph. */
export function PresentationHeader({ kicker, title, children }: { kicker: string; title: string; children: React.ReactNode }) {
  return (
    <header className="max-w-3xl">
      <p className="text-sm font-semibold uppercase tracking-wide text-accent">{kicker}</p>
      <PageTitle className="mt-2 break-words">{title}</PageTitle>
      <p className="mt-4 text-lg text-muted-foreground">{children}</p>
    </header>
  );
}

/** The closing call to action of a presentation page: join as a founding member, or go further. */
export function CallToAction({ title, links, children }: { title: React.ReactNode; links: Array<{ to: string; label: string }>; children: React.ReactNode }) {
  return (
    <section aria-labelledby="cta-title" className="rounded-lg bg-primary p-8 text-primary-foreground">
      <h2 id="cta-title" className="text-2xl font-bold tracking-tight break-words">
        {title}
      </h2>
      <p className="mt-3">{children}</p>
      <div className="mt-6 flex flex-wrap gap-3">
        <Button asChild size="lg" variant="accent" className="h-auto min-h-11 whitespace-normal py-2 text-center">
          <Link to="/join-founder">
            Rejoindre les membres fondateurs
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
        {links.map((link) => (
          <Button key={link.to} asChild size="lg" variant="outline" className="h-auto min-h-11 whitespace-normal py-2 text-center text-foreground">
            <Link to={link.to}>{link.label}</Link>
          </Button>
        ))}
      </div>
    </section>
  );
}

/** A titled section of a legal page; `id` names its heading for screen readers. */
export function LegalSection({ id, title, className = "space-y-3", children }: { id: string; title: React.ReactNode; className?: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
