import { ArrowRight, CheckCircle2, Sparkles, Star } from "lucide-react";
import { data, Link } from "react-router";
import { isPremium } from "~/auth/permissions";
import { requireMember } from "~/auth/session.server";
import { PageHeader } from "~/components/page";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { getPaymentState } from "~/features/membership/membership.server";
import { FOUNDING_SUMMARY, offersFor } from "~/features/membership/offers";
import { foundingPlacesLabel, nextSteps, overviewItems, profileCompleteness } from "~/features/overview/overview-rules";
import { getOverviewFigures } from "~/features/overview/overview.server";
import { useLiveNotifications } from "~/features/notifications/components/live-notifications";
import { getNotificationState } from "~/features/notifications/notifications.server";
import { overviewVisit } from "./overview-visit.server";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { cn } from "~/lib/utils";
import type { Route } from "./+types/overview";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Espace membre"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request, context }: Route.LoaderArgs) {
  const { user, profile } = await requireMember(request);
  const visit = await overviewVisit(request, profile.id);
  const premium = isPremium(profile.membershipType);
  const completeness = profileCompleteness(profile);
  let figures: Awaited<ReturnType<typeof getOverviewFigures>> | null = null;
  // The to-dos are the bell's open ones: the frame reads that state in this request already.
  const notifications = await getNotificationState(user.id);
  try {
    figures = await getOverviewFigures({ profileId: profile.id }, visit.since);
  } catch (error) {
    // The overview then says so, the rest of the page stays.
    logger.warn({ err: error, requestId: context.requestId }, "overview figures failed");
  }
  // A payment awaiting activation closes the offer: only a freemium member can have one.
  const paid = !premium && (await getPaymentState(profile.id)).status === "paid";
  return data(
    {
      firstName: profile.firstName,
      founding: profile.membershipType === "founding_member",
      foundingOffer: offersFor({ kind: "member", membership: profile.membershipType, paid }).includes("founding"),
      paid,
      premium,
      completeness,
      figures,
      notifications,
      items: figures ? overviewItems(figures, notifications.taskTotals) : null,
      steps: nextSteps({ activeMandates: figures?.activeMandates ?? 0, profilePercent: completeness.percent, premium }),
      foundingPlaces: figures?.foundingPlaces ?? null,
    },
    { headers: { "set-cookie": visit.setCookie } },
  );
});

function WaitingList({ items, steps }: { items: Route.ComponentProps["loaderData"]["items"]; steps: Route.ComponentProps["loaderData"]["steps"] }) {
  if (items === null) {
    return (
      <Alert variant="destructive">
        <AlertDescription>Ces informations ne sont pas disponibles pour le moment. Veuillez réessayer dans un instant.</AlertDescription>
      </Alert>
    );
  }
  if (items.length === 0) {
    return (
      <div className="rounded-lg border border-dashed p-5" data-testid="overview-empty">
        <p className="flex items-center gap-2 font-semibold">
          <CheckCircle2 className="h-5 w-5 text-green-700" aria-hidden="true" />
          Rien ne vous attend pour le moment.
        </p>
        <p className="mt-1 text-sm text-muted-foreground">Pour avancer&nbsp;:</p>
        <ul className="mt-2 grid gap-1 text-sm">
          {steps.map((s) => (
            <li key={s.to}>
              <Link to={s.to} className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline">
                <ArrowRight className="h-4 w-4" aria-hidden="true" />
                {s.label}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    );
  }
  return (
    <ul className="grid gap-2" aria-label="Ce qui vous attend">
      {items.map((item) => (
        <li key={item.key}>
          <Link
            to={item.to}
            data-testid={`overview-${item.key}`}
            className="group flex items-center gap-4 rounded-lg border bg-card p-4 hover:border-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            <span className="min-w-12 text-center text-2xl font-bold tabular-nums text-primary">{item.shown}</span>
            <span className="flex-1 text-sm font-medium">{item.label}</span>
            <ArrowRight className="h-4 w-4 shrink-0 text-muted-foreground group-hover:text-primary" aria-hidden="true" />
          </Link>
        </li>
      ))}
    </ul>
  );
}

export default function Overview({ loaderData }: Route.ComponentProps) {
  const { firstName, founding, foundingOffer, paid, premium, completeness, figures, steps, foundingPlaces } = loaderData;
  // A to-do done on another device, or one that arrives, changes the list without a reload.
  const live = useLiveNotifications(loaderData.notifications);
  const items = figures ? overviewItems(figures, live.taskTotals) : null;
  return (
    <section aria-labelledby="tab-title" className="grid grid-cols-1 gap-stack">
      <PageHeader
        level={2}
        titleId="tab-title"
        title={`Bonjour ${firstName}`}
        description="Bienvenue dans votre espace membre."
        primary={
          <Button asChild>
            <Link to="/mandates?nouveau=1">Nouveau mandat</Link>
          </Button>
        }
      />

      {founding ? (
        <Card className="flex flex-col gap-3 border-amber-300 bg-amber-50 p-5 sm:flex-row sm:items-start" data-testid="founding-welcome">
          <Star className="h-8 w-8 shrink-0 text-amber-700" aria-hidden="true" />
          <div>
            <h3 className="text-lg font-semibold text-amber-950">Bienvenue parmi les membres fondateurs&nbsp;!</h3>
            <p className="mt-1 text-sm text-amber-950">
              Merci de votre confiance. Votre badge de membre fondateur est acquis à vie&nbsp;: votre profil est mis en avant
              dans les annuaires, vous bénéficiez d’un accès anticipé aux nouvelles fonctionnalités et serez invité à
              l’événement annuel du réseau.
            </p>
          </div>
        </Card>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-3">
        <section aria-labelledby="waiting-title" className="grid content-start gap-3 lg:col-span-2">
          <h3 id="waiting-title" className="text-lg font-semibold">
            Ce qui vous attend
          </h3>
          <WaitingList items={items} steps={steps} />
        </section>

        <div className="grid content-start gap-4">
          <Card className="p-5" data-testid="profile-completeness">
            <h3 className="font-semibold">Votre profil</h3>
            <p className="mt-2 text-3xl font-bold tabular-nums text-primary">{completeness.percent}&nbsp;%</p>
            <div
              role="progressbar"
              aria-label="Profil complété"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={completeness.percent}
              className="mt-2 h-2 overflow-hidden rounded-full bg-muted"
            >
              <div className="h-full rounded-full bg-primary" style={{ width: `${completeness.percent}%` }} />
            </div>
            {completeness.missing.length > 0 ? (
              <>
                <p className="mt-3 text-sm text-muted-foreground">À compléter&nbsp;:</p>
                <ul className="mt-1 list-inside list-disc text-sm">
                  {completeness.missing.map((m) => (
                    <li key={m}>{m}</li>
                  ))}
                </ul>
                <Button asChild variant="outline" size="sm" className="mt-3">
                  <Link to="/dashboard/profil">Compléter mon profil</Link>
                </Button>
              </>
            ) : (
              <p className="mt-3 text-sm text-muted-foreground">Votre profil est complet.</p>
            )}
          </Card>

          <Card className={cn("p-5", founding ? "border-amber-300" : undefined)} data-testid="founding-status">
            {founding ? (
              <>
                <Badge variant="accent" className="gap-1">
                  <Star className="h-3 w-3" aria-hidden="true" />
                  Membre fondateur
                </Badge>
                <p className="mt-2 text-sm">Votre badge est acquis à vie.</p>
              </>
            ) : foundingOffer ? (
              <>
                <h3 className="font-semibold">Offre membre fondateur</h3>
                <p className="mt-1 text-sm">{FOUNDING_SUMMARY}.</p>
                {foundingPlaces !== null ? <p className="mt-1 text-sm">{foundingPlacesLabel(foundingPlaces)}.</p> : null}
                <Button asChild variant="accent" size="sm" className="mt-3">
                  <Link to="/premium">Découvrir l’offre</Link>
                </Button>
              </>
            ) : (
              <>
                <h3 className="font-semibold">{premium ? "Plan Premium" : "Adhésion membre fondateur"}</h3>
                <p className="mt-1 text-sm">
                  {premium ? "Toutes les fonctionnalités du réseau sont incluses dans votre adhésion." : paid ? "Paiement reçu\u00a0: votre adhésion est en cours d’activation." : null}
                </p>
                <Button asChild variant="outline" size="sm" className="mt-3">
                  <Link to="/premium">Voir mon adhésion</Link>
                </Button>
              </>
            )}
          </Card>
        </div>
      </div>

      <Card className={cn("flex flex-col gap-4 p-6 md:flex-row md:items-center", "border-primary/30 bg-blue-50")}>
        <Sparkles className="h-8 w-8 shrink-0 text-primary" aria-hidden="true" />
        <div className="flex-1">
          <h3 className="text-lg font-semibold">Nouveau&nbsp;: le système de mandats</h3>
          <p className="mt-1 text-sm">
            Déposez vos mandats exclusifs d’acquisition et de cession, découvrez les mandats compatibles de vos confrères
            et demandez une mise en relation en toute confidentialité.
            {premium ? "" : " En Freemium, vous pouvez créer jusqu’à 3 mandats par semestre."}
          </p>
        </div>
        <Button asChild variant="outline">
          <Link to="/mandates">Découvrir les mandats</Link>
        </Button>
      </Card>
    </section>
  );
}
