import { useEffect } from "react";
import { Form, Link, useRevalidator } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { FormAlert, type OnboardingActionResult, type OnboardingView, SubmitButton } from "~/features/onboarding/components/step-form";
import { placesLeftLabel } from "~/lib/format";
import { FOUNDING_SUMMARY, FOUNDING_TERMS } from "../offers";

/** Back from the checkout, the webhook not in yet: the page checks again every few seconds. */
function PaymentConfirming() {
  const revalidator = useRevalidator();
  useEffect(() => {
    const timer = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, 3000);
    return () => clearInterval(timer);
  }, [revalidator]);
  return (
    <Card role="status" data-testid="payment-confirming">
      <meta httpEquiv="refresh" content="5" />
      <CardHeader>
        <CardTitle>Paiement en cours de confirmation</CardTitle>
        <CardDescription>
          Votre paiement a bien été transmis. Nous attendons la confirmation de notre prestataire de paiement&nbsp;: cette page se
          met à jour d’elle-même, en général en quelques secondes.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Link to="/onboarding?paiement=confirmation" className="text-sm text-primary underline">
          Vérifier maintenant
        </Link>
      </CardContent>
    </Card>
  );
}

export function PaymentStep({ state, actionData }: { state: OnboardingView; actionData?: OnboardingActionResult }) {
  const errors = actionData && (actionData.intent === "free" || actionData.intent === "founding") ? actionData.result.error?.[""] : undefined;
  if (state.paymentConfirming) return <PaymentConfirming />;
  return (
    <div className="grid gap-5">
      <FormAlert errors={errors ?? undefined} />
      <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
        <Card className="flex min-w-0 flex-col">
          <CardHeader>
            <CardTitle>Démarrage gratuit</CardTitle>
            <CardDescription>0&nbsp;€ — accès limité</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-1 flex-col gap-4">
            <ul className="list-disc space-y-1 pl-5 text-sm">
              <li>Profil de base dans l’annuaire</li>
              <li>3 mandats par semestre</li>
              <li>Messagerie et statistiques réservées aux membres Premium</li>
            </ul>
            <Form method="post" className="mt-auto">
              <SubmitButton label="Commencer gratuitement" intent="free" variant="outline" />
            </Form>
          </CardContent>
        </Card>
        <Card className="flex min-w-0 flex-col border-amber-300 ring-1 ring-amber-200">
          <CardHeader>
            <CardTitle>Membre fondateur</CardTitle>
            <CardDescription>{FOUNDING_SUMMARY}</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-1 flex-col gap-4">
            <ul className="list-disc space-y-1 pl-5 text-sm">
              <li>Badge fondateur à vie et mise en avant dans l’annuaire</li>
              <li>Mandats illimités, messagerie interne, statistiques</li>
              <li>Présentation enrichie, logo et transactions certifiées</li>
            </ul>
            <p className="text-sm text-muted-foreground">{placesLeftLabel(state.places, ["place de membre fondateur", "places de membre fondateur"])}.</p>
            <Form method="post" className="mt-auto">
              {/* Membership is brass (docs/design-system.md), and the free start its quiet alternative. */}
              <SubmitButton label={`Devenir membre fondateur — ${FOUNDING_TERMS.price}`} intent="founding" variant="accent" />
            </Form>
          </CardContent>
        </Card>
      </div>
      <p className="text-sm text-muted-foreground">
        {FOUNDING_TERMS.payment} {FOUNDING_TERMS.guarantee} {FOUNDING_TERMS.vat[0].toUpperCase() + FOUNDING_TERMS.vat.slice(1)}. Votre adhésion est activée après validation de votre profil par l’équipe.
      </p>
    </div>
  );
}
