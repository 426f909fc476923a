// The match percentage with its badge style (strong ≥ 60, medium ≥ 30, weak), always in the same
// place of a match's card (MatchHeader), and, to show why, the four criteria in words: met, not
// met, not specified.
import { Check, Minus, X } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "~/lib/utils";
import {
  criterionText,
  SCORE_BADGE_LABELS,
  SCORE_CRITERIA,
  scoreBadge,
  type CriteriaVerdicts,
  type CriterionVerdict,
} from "../match-score";

const BADGE_CLASS = {
  strong: "bg-green-100 text-green-900 border-green-300",
  medium: "bg-amber-100 text-amber-900 border-amber-300",
  weak: "bg-slate-100 text-slate-800 border-slate-300",
} as const;

export function ScorePill({ total }: { total: number }) {
  const badge = scoreBadge(total);
  return (
    <span
      className={cn("inline-flex items-center gap-1 whitespace-nowrap rounded-full border px-2.5 py-0.5 text-sm font-bold", BADGE_CLASS[badge])}
      title={SCORE_BADGE_LABELS[badge]}
      data-testid="score-pill"
    >
      {total}&nbsp;%<span className="sr-only"> de compatibilité ({SCORE_BADGE_LABELS[badge].toLowerCase()})</span>
    </span>
  );
}

/**
 * A match's heading row: its summary on the left, the percentage at the top right on every
 * card — a grid column of its own, so a long summary never pushes the badge under it.
 */
export function MatchHeader({ total, children }: { total: number | null; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-2" data-testid="match-header">
      <div className="min-w-0">{children}</div>
      {total === null ? null : <ScorePill total={total} />}
    </div>
  );
}

const VERDICT_CLASS: Record<CriterionVerdict, string> = {
  met: "border-green-300 bg-green-50 text-green-900",
  unmet: "border-slate-300 bg-slate-50 text-slate-800",
  unspecified: "border-dashed border-slate-300 bg-background text-muted-foreground",
};

const VERDICT_ICON: Record<CriterionVerdict, typeof Check> = { met: Check, unmet: X, unspecified: Minus };

export function ScoreBreakdownList({ criteria, className }: { criteria: CriteriaVerdicts; className?: string }) {
  return (
    <ul className={cn("flex flex-wrap gap-1.5 text-xs", className)} aria-label="Critères du rapprochement">
      {SCORE_CRITERIA.map((c) => {
        const verdict = criteria[c.key];
        const Icon = VERDICT_ICON[verdict];
        return (
          <li key={c.key} className={cn("inline-flex items-center gap-1 rounded border px-1.5 py-0.5", VERDICT_CLASS[verdict])} data-verdict={verdict}>
            <Icon className="h-3 w-3" aria-hidden="true" />
            {criterionText(c.label, verdict)}
          </li>
        );
      })}
    </ul>
  );
}
