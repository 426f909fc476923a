// The member's own view of their insurance certificate: the "Profil vérifié" mark as
// they read it, the certificate on file, its end date, and whether the team has checked it.
import { AlertTriangle, Clock, ShieldCheck } from "lucide-react";
import { Link } from "react-router";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { formatDate } from "~/lib/dates";
import type { InsuranceView } from "../insurance-renewal.server";
import { VERIFICATION_STEP_LABELS, VERIFIED_MARK_RULE } from "../verification-rules";
import { VerifiedMark } from "./verified-mark";

export function InsuranceStatusCard({ view, renewLink = false }: { view: InsuranceView; renewLink?: boolean }) {
  const e = view.evidence;
  return (
    <section className="grid gap-3 rounded-lg border p-4" aria-labelledby="insurance-status-title" data-testid="insurance-status">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="insurance-status-title" className="text-lg font-semibold">
          Vérification et assurance
        </h2>
        {view.mark ? <VerifiedMark mark={view.mark} /> : null}
      </div>
      {view.state.kind === "incomplete" ? (
        <div className="text-sm" data-testid="verification-missing">
          <p>
            La mention «{"\u00a0"}Profil vérifié{"\u00a0"}» n’est pas encore accordée à votre profil. Étapes restant à contrôler par l’équipe{"\u00a0"}:
          </p>
          <ul className="mt-1 list-disc pl-5 text-muted-foreground">
            {view.state.missing.map((step) => (
              <li key={step}>{VERIFICATION_STEP_LABELS[step]}</li>
            ))}
          </ul>
          <p className="mt-1 text-xs text-muted-foreground">{VERIFIED_MARK_RULE.short}</p>
        </div>
      ) : null}
      {view.toRenew ? (
        <Alert variant="destructive">
          <AlertTriangle aria-hidden="true" />
          <AlertTitle>Assurance à renouveler</AlertTitle>
          <AlertDescription>
            Votre attestation d’assurance a expiré{"\u00a0"}: la mention «{"\u00a0"}Profil vérifié{"\u00a0"}» est retirée de votre profil public. Déposez la
            nouvelle attestation pour que l’équipe la vérifie.
          </AlertDescription>
        </Alert>
      ) : null}
      {e ? (
        <dl className="grid gap-2 text-sm sm:grid-cols-2">
          <div className="min-w-0">
            <dt className="text-muted-foreground">Assureur</dt>
            <dd className="break-words font-medium">{e.insurer}</dd>
          </div>
          <div className="min-w-0">
            <dt className="text-muted-foreground">Numéro de contrat</dt>
            <dd className="break-words font-medium">{e.policyNumber}</dd>
          </div>
          <div className="min-w-0">
            <dt className="text-muted-foreground">Fin de validité</dt>
            <dd className="font-medium">{formatDate(`${e.insuranceEndsOn}T12:00:00Z`)}</dd>
          </div>
          <div className="min-w-0">
            <dt className="text-muted-foreground">Vérification par l’équipe</dt>
            <dd className="flex items-center gap-1.5 font-medium">
              {e.insuranceChecked ? (
                <>
                  <ShieldCheck className="h-4 w-4 text-success" aria-hidden="true" /> Attestation vérifiée
                </>
              ) : (
                <>
                  <Clock className="h-4 w-4 text-muted-foreground" aria-hidden="true" /> En attente de vérification
                </>
              )}
            </dd>
          </div>
        </dl>
      ) : (
        <p className="text-sm text-muted-foreground">Aucune attestation d’assurance n’est enregistrée pour votre profil.</p>
      )}
      {renewLink ? (
        <div>
          <Button asChild variant={view.toRenew || !e ? "default" : "outline"} size="sm">
            <Link to="/parametres/assurance">{e ? "Déposer une nouvelle attestation" : "Déposer mon attestation d’assurance"}</Link>
          </Button>
        </div>
      ) : null}
    </section>
  );
}
