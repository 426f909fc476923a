// The match percentage with its badge style (strong ≥ 60, medium ≥ 30, weak) and, to show why,
// the four criteria with the points each one earned.
import { Check, Minus } from "lucide-react";
import { cn } from "~/lib/utils";
import { SCORE_BADGE_LABELS, SCORE_CRITERIA, scoreBadge, type ScoreBreakdown } from "../match-score";

const BADGE_CLASS = {
  strong: "bg-green-100 text-green-900 border-green-300",
  medium: "bg-amber-100 text-amber-900 border-amber-300",
  weak: "bg-slate-100 text-slate-800 border-slate-300",
} as const;

export function ScorePill({ total }: { total: number }) {
  const badge = scoreBadge(total);
  return (
    <span
      className={cn("inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-sm font-bold", BADGE_CLASS[badge])}
      title={SCORE_BADGE_LABELS[badge]}
    >
      {total}&nbsp;%<span className="sr-only"> de compatibilité ({SCORE_BADGE_LABELS[badge].toLowerCase()})</span>
    </span>
  );
}

export function ScoreBreakdownList({ score, className }: { score: ScoreBreakdown; className?: string }) {
  return (
    <ul className={cn("flex flex-wrap gap-1.5 text-xs", className)} aria-label="Détail du score">
      {SCORE_CRITERIA.map((c) => {
        const points = score[c.key];
        const met = points > 0;
        return (
          <li
            key={c.key}
            className={cn(
              "inline-flex items-center gap-1 rounded border px-1.5 py-0.5",
              met ? "border-green-300 bg-green-50 text-green-900" : "border-slate-200 bg-slate-50 text-slate-700",
            )}
          >
            {met ? <Check className="h-3 w-3" aria-hidden="true" /> : <Minus className="h-3 w-3" aria-hidden="true" />}
            {c.label} {points}/{c.max}
          </li>
        );
      })}
    </ul>
  );
}
