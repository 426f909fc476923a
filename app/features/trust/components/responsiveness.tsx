// Responsiveness over the last 90 days, as members see it: a line on the internal
// directory card (only with enough data, to keep the card light) and a block on the profile (with
// the empty state). Never on the public profile.
import { Clock } from "lucide-react";
import { ANSWER_WITHIN_DAYS, answeredShareLabel, medianDelayLabel, RESPONSIVENESS_EMPTY, RESPONSIVENESS_WINDOW_LABEL, responsivenessShortLabel, type Responsiveness } from "../reputation-rules";

/** The directory card's line: nothing when there is too little data. */
export function ResponsivenessLine({ value }: { value: Responsiveness | null }) {
  if (!value) return null;
  return (
    <p className="flex items-start gap-1 text-sm" data-testid="peer-responsiveness">
      <Clock className="mt-0.5 h-4 w-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <span>{responsivenessShortLabel(value)}</span>
    </p>
  );
}

/** The profile's block, with the empty state. */
export function ResponsivenessSummary({ value }: { value: Responsiveness | null }) {
  const median = value ? medianDelayLabel(value.medianHours) : null;
  return (
    <div className="grid gap-1 text-sm" data-testid="responsiveness">
      <p className="flex items-center gap-2 font-medium">
        <Clock className="h-4 w-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        Réactivité {RESPONSIVENESS_WINDOW_LABEL}
      </p>
      {value ? (
        <ul className="grid gap-0.5 pl-6">
          <li>
            {answeredShareLabel(value.answeredShare)} des demandes de rapprochement et messages reçus ont eu une réponse sous {ANSWER_WITHIN_DAYS}
            {"\u00a0"}jours ({value.received} reçus)
          </li>
          {median ? <li>Délai médian de réponse&nbsp;: {median}</li> : null}
        </ul>
      ) : (
        <p className="pl-6 text-muted-foreground">{RESPONSIVENESS_EMPTY}</p>
      )}
    </div>
  );
}
