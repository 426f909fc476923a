// The ratings a member received, as other members read them on the profile page. Loaded on demand
// by the page (React.lazy): visitors never see it, so the public profile's JavaScript does not
// carry the rating cards, their report form and their dates (`npm run lighthouse`).
import { RatingCard, ReportForm, type RatingActionResult, type RatingShown } from "~/features/trust/components/rating-forms";
import { CardSection as Section } from "~/components/ui/card";
/**
 * The ratings a member received, as other members read them on the profile: each with the rated
 * member's answer and a report form (the error under the rating it concerns).
 */
export function MemberRatingsSection({ list, report }: { list: RatingShown[]; report: RatingActionResult | undefined }) {
  if (list.length === 0) return null;
  return (
    <Section title="Évaluations des confrères">
      <div className="grid gap-3">
        {list.map((r) => (
          <RatingCard key={r.id} rating={r}>
            <ReportForm ratingId={r.id} error={report?.ratingId === r.id ? report.error : null} />
          </RatingCard>
        ))}
      </div>
    </Section>
  );
}
