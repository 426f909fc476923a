// /tiers-confiance: the published rules of reputation and ratings, from the same
// constants the code applies (./reputation-rules), so that the page and the product never differ.
import { ALL_BADGE_LABELS, BADGE_MEANINGS } from "../badges";
import {
  ANSWER_WITHIN_DAYS,
  RATING_COMMENT_MAX,
  RATING_CRITERIA,
  RATING_CRITERION_LABELS,
  RATING_WINDOW_DAYS,
  REPUTATION_BADGES,
  RESPONSIVENESS_MIN_RECEIVED,
  RESPONSIVENESS_WINDOW_DAYS,
  TOP_PERFORMER_WINDOW_MONTHS,
} from "../reputation-rules";

const H2 = "text-2xl font-bold tracking-tight break-words text-foreground";
const H3 = "text-lg font-semibold break-words";

export function ReputationRulesSection() {
  const criteria = RATING_CRITERIA.map((c) => RATING_CRITERION_LABELS[c].toLowerCase()).join(", ");
  return (
    <section aria-labelledby="reputation-rules-title" className="grid gap-6" id="regles-de-reputation">
      <h2 id="reputation-rules-title" className={H2}>
        Réputation et évaluations&nbsp;: nos règles
      </h2>
      <div className="grid gap-6 md:grid-cols-2">
        <div className="grid content-start gap-2">
          <h3 className={H3}>Ce que nous mesurons</h3>
          <ul className="list-disc space-y-1 pl-5 text-sm text-muted-foreground">
            <li>
              La réactivité, sur les {RESPONSIVENESS_WINDOW_DAYS} derniers jours&nbsp;: la part des demandes de mise en relation et des messages internes reçus
              qui ont obtenu une réponse sous {ANSWER_WITHIN_DAYS} jours, et le délai médian de réponse. Un message reçu depuis moins de{" "}
              {ANSWER_WITHIN_DAYS} jours et encore sans réponse n’est pas compté. Elle est affichée aux seuls membres du réseau (jamais sur le profil public),
              à partir de {RESPONSIVENESS_MIN_RECEIVED} demandes ou messages reçus sur la période.
            </li>
            <li>Les dossiers de rapprochement&nbsp;: dossiers conclus, abandonnés, et le taux de réussite (dossiers conclus parmi les dossiers terminés).</li>
            <li>Les évaluations reçues des confrères après un dossier.</li>
          </ul>
          <p className="text-sm text-muted-foreground">
            Ces indicateurs sont recalculés à chaque événement qui les modifie (dossier terminé, évaluation publiée ou masquée) et au moins une fois par
            heure.
          </p>
        </div>
        <div className="grid content-start gap-2">
          <h3 className={H3}>Les évaluations après un dossier</h3>
          <ul className="list-disc space-y-1 pl-5 text-sm text-muted-foreground">
            <li>
              Lorsqu’un dossier est conclu ou abandonné, chacun des deux membres peut évaluer l’autre une fois, de 1 à 5, sur trois critères&nbsp;: {criteria},
              avec un commentaire facultatif de {RATING_COMMENT_MAX.toLocaleString("fr-FR")} caractères au plus, qui ne doit nommer aucun client.
            </li>
            <li>
              Double aveugle&nbsp;: aucune évaluation n’est visible avant que les deux membres aient évalué, ou au plus tard {RATING_WINDOW_DAYS} jours après la
              fin du dossier&nbsp;; l’évaluation se ferme alors.
            </li>
            <li>Le membre évalué peut répondre une fois&nbsp;; sa réponse est publiée avec l’évaluation.</li>
            <li>
              La note moyenne et le nombre d’évaluations sont visibles des membres du réseau&nbsp;; sur le profil public, seulement si le membre l’accepte dans ses
              paramètres.
            </li>
            <li>
              Modération&nbsp;: toute évaluation peut être signalée. L’équipe du réseau la maintient ou la masque en indiquant le motif, consigné au journal
              d’administration&nbsp;; une évaluation masquée ne compte plus.
            </li>
          </ul>
        </div>
      </div>
      <div className="grid gap-2">
        <h3 className={H3}>Les badges et leurs règles</h3>
        <dl className="grid gap-3 md:grid-cols-2">
          {(["expert", ...REPUTATION_BADGES] as const).map((b) => (
            <div key={b} className="rounded-md border p-3">
              <dt className="font-medium">{ALL_BADGE_LABELS[b]}</dt>
              <dd className="text-sm text-muted-foreground">{BADGE_MEANINGS[b]}</dd>
            </div>
          ))}
        </dl>
        <p className="text-sm text-muted-foreground">
          «&nbsp;Top Performer&nbsp;» compare les membres ayant conclu au moins un dossier sur les {TOP_PERFORMER_WINDOW_MONTHS} derniers mois. Une médiation compte
          lorsque l’équipe l’a tranchée en défaveur du membre.
        </p>
      </div>
    </section>
  );
}
