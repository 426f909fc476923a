// The five verification steps of a profile in the admin overlay: evidence inline, one
// tick per step. The certificate opens through its guarded route (images are previewed). The
// facts the platform recorded are ticked by the system; the ticks are outline buttons, as the
// overlay's one primary action is the decision (« Valider » once the five are ticked).
import { CheckCircle2, Circle } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Email } from "~/components/email";
import { formatAdminDate } from "~/lib/format";
import { VERIFIED_MARK_RULE } from "~/features/trust/verification-rules";
import type { VerificationChecklist } from "../verification-admin.server";

const MARK_TEXT = {
  verified: "Mention «\u00a0Profil vérifié\u00a0»\u00a0: accordée",
  insurance_expired: "Mention «\u00a0Profil vérifié\u00a0»\u00a0: retirée, l’assurance a expiré",
  incomplete: "Mention «\u00a0Profil vérifié\u00a0»\u00a0: non accordée tant que les cinq étapes ne sont pas cochées",
} as const;

export function VerificationChecklistView({ profileId, checklist, editable }: { profileId: string; checklist: VerificationChecklist; editable: boolean }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const done = checklist.steps.length - checklist.unchecked.length;
  return (
    <section className="grid gap-3 border-t pt-4" aria-labelledby="verification-title" data-testid="verification-checklist">
      <h3 id="verification-title" className="font-semibold">
        Vérification ({done}/{checklist.steps.length} étapes cochées)
      </h3>
      <p className="text-sm" data-testid="verification-mark-state">
        <span className="font-medium">{MARK_TEXT[checklist.mark.kind]}</span>
        <span className="block text-xs text-muted-foreground">{VERIFIED_MARK_RULE.short}</span>
      </p>
      {checklist.insuranceStatus === "expired" ? (
        <p className="text-sm font-medium text-destructive" data-testid="insurance-to-renew">
          Assurance à renouveler&nbsp;: l’attestation enregistrée a expiré.
        </p>
      ) : null}
      <ol className="grid gap-3">
        {checklist.steps.map((s) => (
          <li key={s.step} className="grid gap-2 rounded-md border p-3 text-sm" data-testid={`verification-step-${s.step}`}>
            <div className="flex flex-wrap items-start gap-2">
              {s.checkedAt ? <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0 text-success" aria-hidden="true" /> : <Circle className="mt-0.5 h-4 w-4 shrink-0 text-muted-foreground" aria-hidden="true" />}
              <span className="min-w-0 flex-1 font-medium">{s.label}</span>
              <span className={s.checkedAt ? "text-success" : "text-muted-foreground"} data-testid="verification-step-state">
                {s.checkedBy === "system" && s.checkedAt
                  ? `Constatée par le système le ${formatAdminDate(s.checkedAt)}`
                  : s.checkedAt
                    ? `Cochée le ${formatAdminDate(s.checkedAt)}`
                    : "Non cochée"}
                {s.checkedByEmail ? (
                  <>
                    {" "}par <Email address={s.checkedByEmail} />
                  </>
                ) : null}
              </span>
            </div>
            <ul className="grid gap-0.5 pl-6 text-muted-foreground">
              {s.evidence.map((line) => (
                <li key={line} className="break-words">
                  {line}
                </li>
              ))}
              {s.step === "siren" && checklist.sirenDigits ? (
                <li>
                  <a
                    href={`https://annuaire-entreprises.data.gouv.fr/entreprise/${checklist.sirenDigits.slice(0, 9)}`}
                    target="_blank"
                    rel="noopener noreferrer nofollow"
                    className="text-primary underline"
                  >
                    Vérifier sur l’Annuaire des entreprises
                  </a>
                </li>
              ) : null}
              {s.step === "insurance" && checklist.certificate ? (
                <li className="grid gap-2">
                  <a href={checklist.certificate.url} target="_blank" rel="noopener noreferrer" className="text-primary underline break-all">
                    Ouvrir l’attestation ({checklist.certificate.isPdf ? "PDF" : "image"}, déposée le {formatAdminDate(checklist.certificate.uploadedAt)})
                  </a>
                  {checklist.certificate.isImage ? (
                    <img src={checklist.certificate.url} alt="Aperçu de l’attestation d’assurance" className="max-h-64 w-auto max-w-full rounded border object-contain" loading="lazy" />
                  ) : null}
                </li>
              ) : null}
            </ul>
            {/* A fact the system recorded is not the admin's to untick. */}
            {editable && s.checkedBy !== "system" ? (
              <Form method="post" preventScrollReset className="pl-6">
                <input type="hidden" name="profileId" value={profileId} />
                <input type="hidden" name="step" value={s.step} />
                <Button type="submit" name="intent" value={s.checkedAt ? "uncheck" : "check"} size="sm" variant={s.checkedAt ? "ghost" : "outline"} disabled={busy}>
                  {s.checkedAt ? "Décocher" : "Cocher cette étape"}
                  <span className="sr-only">&nbsp;: {s.label}</span>
                </Button>
              </Form>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
