// The parts of a member's profile page (/consultant/:slug): paragraphs of free text and the
// ratings summary (its titled cards: CardSection in components/ui/card.tsx; the ratings as members
// read them: member-ratings-section.tsx).
import { Star } from "lucide-react";
import type * as React from "react";
import { ratingSummaryLabel } from "~/features/trust/reputation-labels";

export function Paragraphs({ text }: { text: string }) {
  return (
    <div className="space-y-3 break-words text-foreground">
      {text.split(/\n{2,}/).map((para, i) => (
        <p key={i} className="whitespace-pre-line">
          {para}
        </p>
      ))}
    </div>
  );
}

export function RatingsSummary({ ratings }: { ratings: { average: number | null; count: number } | null }) {
  const label = ratings ? ratingSummaryLabel(ratings.average, ratings.count) : null;
  if (!label) return null;
  return (
    <p className="flex items-center gap-2 text-sm font-medium" data-testid="ratings-summary">
      <Star className="h-4 w-4 fill-amber-400 text-amber-500" aria-hidden="true" />
      <span>
        <span className="sr-only">Évaluations des confrères&nbsp;: </span>
        {label}
      </span>
    </p>
  );
}
