import { CheckCircle2, Circle } from "lucide-react";
import { Link } from "react-router";
import { placesLeftLabel } from "~/lib/format";

/** The steps as the progress list shows them; `param` names the step a member may go back to. */
const STEPS = [
  { key: "profile", label: "Profil", param: "profil" },
  { key: "charter", label: "Charte", param: null },
  { key: "details", label: "Expérience", param: "details" },
  { key: "verification", label: "Justificatifs", param: "verification" },
  { key: "recommendations", label: "Parrainage", param: "recommandations" },
  { key: "payment", label: "Adhésion", param: null },
  { key: "waiting", label: "Validation", param: null },
] as const;

export const STEP_TITLES: Record<string, { title: string; description: string }> = {
  profile: { title: "Créez votre profil", description: "Ces informations apparaîtront sur votre fiche professionnelle." },
  charter: { title: "Charte d’engagement", description: "Lisez et acceptez la charte qui lie les membres du réseau." },
  details: { title: "Votre expérience", description: "Aidez l’équipe et vos futurs confrères à connaître votre pratique." },
  verification: { title: "Vos justificatifs professionnels", description: "SIREN ou SIRET, inscription professionnelle et attestation d’assurance\u00a0: l’équipe les vérifie avant de valider votre profil." },
  recommendations: { title: "Vos deux parrains", description: "Le réseau fonctionne par cooptation\u00a0: deux confrères doivent vous recommander." },
  payment: { title: "Choisissez votre adhésion", description: "Démarrez gratuitement ou rejoignez les membres fondateurs." },
  waiting: { title: "Dossier en cours de validation", description: "Merci\u00a0! Voici où en est votre adhésion." },
};

/** The page's header: places left, the progress bar and the steps, done ones editable until payment. */
export function OnboardingHeader({ state }: { state: { places: number; progress: number; current: string; step: string } }) {
  const current = STEPS.findIndex((s) => s.key === state.current);
  return (
    <header className="mb-8 grid gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-3xl font-bold text-primary">Rejoindre le réseau</h1>
        <p className="text-sm font-medium text-accent">{placesLeftLabel(state.places, ["place de membre fondateur", "places de membre fondateur"])}</p>
      </div>
      <div className="flex items-center gap-3">
        <div className="h-2 flex-1 overflow-hidden rounded-full bg-muted" role="progressbar" aria-label="Progression de l’adhésion" aria-valuemin={0} aria-valuemax={100} aria-valuenow={state.progress}>
          <div className="h-full bg-primary transition-all" style={{ width: `${state.progress}%` }} />
        </div>
        <span className="w-12 text-right text-sm font-semibold">{state.progress}&nbsp;%</span>
      </div>
      <ol className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground" aria-label="Étapes">
        {STEPS.map((s, i) => {
          const done = i < current;
          const editable = done && s.param && current <= STEPS.findIndex((x) => x.key === "payment");
          return (
            <li key={s.key} className="flex items-center gap-1" aria-current={s.key === state.step ? "step" : undefined}>
              {done ? <CheckCircle2 className="h-3.5 w-3.5 text-success" aria-hidden="true" /> : <Circle className="h-3.5 w-3.5" aria-hidden="true" />}
              {editable ? (
                <Link to={`/onboarding?etape=${s.param}`} className="underline hover:text-foreground" aria-label={`Modifier l’étape ${s.label}`}>
                  {s.label}
                </Link>
              ) : (
                <span className={s.key === state.step ? "font-semibold text-foreground" : undefined}>{s.label}</span>
              )}
            </li>
          );
        })}
      </ol>
    </header>
  );
}
