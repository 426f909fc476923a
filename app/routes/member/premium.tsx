import { Check, Crown, ShieldCheck } from "lucide-react";
import type * as React from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { requireMember } from "~/auth/session.server";
import { AppPage, PageHeader } from "~/components/page";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader } from "~/components/ui/card";
import {
  getFoundingPlacesLeft,
  getPaymentState,
  PaymentError,
  startFoundingCheckout,
} from "~/features/membership/membership.server";
import { PAYMENT_MESSAGES, paymentReturnFlag } from "~/features/membership/payment-messages";
import { euros, FOUNDING_PRICE_EUROS, FOUNDING_TERMS, OFFER_SETTINGS, offersFor, PLAN_INCLUDES, PLAN_NAMES, planOf, regularPriceRange, ttc } from "~/features/membership/offers";
import { countLabel } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/premium";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Premium");

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  const { profile } = await requireMember(request);
  const flag = paymentReturnFlag(new URL(request.url));
  if (flag === "canceled") {
    throw await redirectWithToast("/premium", {
      type: "info",
      title: PAYMENT_MESSAGES.canceledTitle,
      description: PAYMENT_MESSAGES.canceledDescription,
    });
  }
  if (flag === "success") {
    // The member is already validated: the plan is active as soon as the provider confirms.
    const active = profile.membershipType !== "freemium";
    throw await redirectWithToast("/premium", {
      type: "success",
      title: PAYMENT_MESSAGES.successTitle,
      description: active
        ? "Votre adhésion membre fondateur est active."
        : "Votre adhésion sera activée dès la confirmation de votre paiement.",
    });
  }
  const [places, payment] = await Promise.all([getFoundingPlacesLeft(), getPaymentState(profile.id)]);
  const offers = offersFor({ kind: "member", membership: profile.membershipType, paid: payment.status === "paid" });
  return { plan: planOf(profile.membershipType), offers, places, paymentStatus: payment.status };
});

export const action = atEdge(async function action({ request }: Route.ActionArgs) {
  const { user } = await requireMember(request);
  try {
    const { url } = await startFoundingCheckout(user);
    return redirect(url);
  } catch (error) {
    if (error instanceof PaymentError) return data({ error: error.message }, { status: 502 });
    throw error;
  }
});

const FAQ = [
  {
    q: "Qu’est-ce que l’offre membre fondateur\u00a0?",
    a: `Les ${OFFER_SETTINGS.foundingPlaces} premiers membres du réseau accèdent à toutes les fonctionnalités Premium pour ${FOUNDING_TERMS.price} et conservent à vie le badge de membre fondateur. ${FOUNDING_TERMS.guarantee}`,
  },
  { q: "Mon adhésion se renouvelle-t-elle automatiquement\u00a0?", a: FOUNDING_TERMS.payment },
  {
    q: "Quand mon adhésion est-elle activée\u00a0?",
    a: "Dès que le paiement est confirmé par notre prestataire de paiement, en général en quelques secondes. Votre badge et vos fonctionnalités Premium apparaissent alors dans votre espace membre.",
  },
  { q: "Puis-je être remboursé\u00a0?", a: FOUNDING_TERMS.moneyBack },
  {
    q: "Le paiement est-il sécurisé\u00a0?",
    a: "Le paiement par carte est traité par un prestataire certifié. Vos coordonnées bancaires ne transitent jamais par nos serveurs.",
  },
];

function Feature({ children }: { children: React.ReactNode }) {
  return (
    <li className="flex gap-2 text-sm">
      <Check className="mt-0.5 h-4 w-4 shrink-0 text-success" aria-hidden="true" />
      <span>{children}</span>
    </li>
  );
}

export default function Premium({ loaderData, actionData }: Route.ComponentProps) {
  const { plan, offers, places, paymentStatus } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const subscribed = plan !== "freemium";
  const founding = offers.includes("founding");
  const range = regularPriceRange();
  return (
    <AppPage>
      <PageHeader
        back={{ to: "/dashboard", label: "Retour au tableau de bord" }}
        title={subscribed ? "Votre adhésion" : "Passez Premium"}
        description={subscribed ? "Toutes les fonctionnalités du réseau sont incluses dans votre adhésion." : "Développez votre activité avec toutes les fonctionnalités du réseau."}
      />

      {founding ? (
        <Alert variant="info" className="mt-6 flex gap-3">
          <Crown className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
          <AlertDescription>
            <strong>Offre membre fondateur</strong> réservée aux {OFFER_SETTINGS.foundingPlaces} premiers membres
            {places === null ? "." : `\u00a0: plus que ${countLabel(places, "place disponible", "places disponibles")}.`}
          </AlertDescription>
        </Alert>
      ) : null}
      {!subscribed && paymentStatus === "paid" ? (
        <Alert variant="info" className="mt-4">
          <AlertDescription>Votre paiement a bien été reçu{"\u00a0"}: votre adhésion est en cours d’activation.</AlertDescription>
        </Alert>
      ) : null}
      {actionData?.error ? (
        <Alert variant="destructive" className="mt-4">
          <AlertDescription>{actionData.error}</AlertDescription>
        </Alert>
      ) : null}

      {subscribed ? (
        <Card className="mt-8 flex flex-col border-2 border-primary" data-testid="current-plan">
          <CardHeader>
            <div className="flex items-center justify-between gap-2">
              <h2 className="text-xl font-semibold">{PLAN_NAMES[plan]}</h2>
              <Badge variant="secondary">Plan actuel</Badge>
            </div>
          </CardHeader>
          <CardContent>
            <ul className="space-y-2">
              {PLAN_INCLUDES[plan].map((f) => (
                <Feature key={f}>{f}</Feature>
              ))}
            </ul>
          </CardContent>
        </Card>
      ) : (
        <div className="mt-8 grid gap-6 md:grid-cols-2">
          <Card className="flex flex-col">
            <CardHeader>
              <div className="flex items-center justify-between gap-2">
                <h2 className="text-xl font-semibold">Freemium</h2>
                <Badge variant="secondary">Plan actuel</Badge>
              </div>
              <p className="text-3xl font-bold">
                {euros(0)} <span className="text-base font-normal text-muted-foreground">/ an</span>
              </p>
            </CardHeader>
            <CardContent className="flex-1">
              <ul className="space-y-2">
                {PLAN_INCLUDES.freemium.map((f) => (
                  <Feature key={f}>{f}</Feature>
                ))}
              </ul>
            </CardContent>
          </Card>

          <Card className="flex flex-col border-2 border-primary" data-testid="founding-offer">
            <CardHeader>
              <div className="flex items-center justify-between gap-2">
                <h2 className="text-xl font-semibold">Premium</h2>
                <Badge variant="accent">Offre fondateur</Badge>
              </div>
              <p className="text-3xl font-bold text-primary">
                {ttc(FOUNDING_PRICE_EUROS)} <span className="text-base font-normal text-muted-foreground">/ an</span>
              </p>
              <p className="text-xs text-muted-foreground">{FOUNDING_TERMS.vat}</p>
              <p className="text-sm text-muted-foreground">
                Tarif futur{"\u00a0"}: <span className="line-through">{euros(range.min)} à {euros(range.max)} TTC par an</span> selon le collège.
              </p>
              <p className="text-sm text-muted-foreground">{FOUNDING_TERMS.guarantee}</p>
              <p className="text-sm text-muted-foreground">{FOUNDING_TERMS.payment}</p>
            </CardHeader>
            <CardContent className="flex-1">
              <ul className="space-y-2">
                {PLAN_INCLUDES.founding_member.map((f) => (
                  <Feature key={f}>{f}</Feature>
                ))}
              </ul>
            </CardContent>
            <CardFooter className="flex flex-col items-stretch gap-3">
              {founding ? (
                <Form method="post">
                  <Button type="submit" size="lg" className="w-full" disabled={busy}>
                    {busy ? "Redirection vers le paiement..." : "Rejoindre l’offre fondateur"}
                  </Button>
                </Form>
              ) : (
                <p className="text-center text-sm font-medium text-success">Paiement reçu{"\u00a0"}: activation en cours.</p>
              )}
              <p className="flex items-center justify-center gap-2 text-xs text-muted-foreground">
                <ShieldCheck className="h-4 w-4" aria-hidden="true" />
                {FOUNDING_TERMS.moneyBackShort[0].toUpperCase() + FOUNDING_TERMS.moneyBackShort.slice(1)}
              </p>
            </CardFooter>
          </Card>
        </div>
      )}

      {subscribed ? null : (
        <section aria-labelledby="faq-title" className="mt-12">
          <h2 id="faq-title" className="text-2xl font-bold tracking-tight">
            Questions fréquentes
          </h2>
          <div className="mt-4 divide-y rounded-lg border">
            {FAQ.map((item) => (
              <details key={item.q} className="group p-4">
                <summary className="cursor-pointer font-medium">{item.q}</summary>
                <p className="mt-2 text-sm text-muted-foreground">{item.a}</p>
              </details>
            ))}
          </div>
        </section>
      )}
    </AppPage>
  );
}
