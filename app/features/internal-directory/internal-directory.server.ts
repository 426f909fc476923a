// The internal directory 'Annuaire Interne' (spec §2, §3 "Internal directory row"): validated
// peers other than the actor, with their mandate statistics. Search and filters are the public
// directory's (directoryWhere: word-wise trigram search on search_text, department, sector,
// profession), so both directories find the same people. The page, its total and the mandate
// counts come from ONE query: the page of profiles is cut first, then a lateral aggregate counts
// the mandates of those rows only (no N+1, no count over the whole table).
import { sql } from "drizzle-orm";
import { isPremium } from "~/auth/permissions";
import { queryRows } from "~/db/query.server";
import { getCache, keptPage } from "~/lib/cache.server";
import { professionLabel } from "~/db/reference";
import type { DirectoryQuery } from "~/features/directory/directory.schema";
import { directoryCountKey, directoryWhere } from "~/features/directory/directory.server";
import { type BadgeKind, profileBadges } from "~/features/trust/badges";
import { parisToday } from "~/features/mandates/mandate-rules";
import {
  REPUTATION_COLUMNS,
  reputationFromColumns,
  RESPONSIVENESS_COLUMNS,
  responsivenessFromColumns,
  type ReputationColumns,
  type ResponsivenessColumns,
} from "~/features/trust/reputation.server";
import { reputationBadges, responsiveness, type Responsiveness } from "~/features/trust/reputation-rules";
import { type StoredVerificationSummary, verificationMark, type VerificationMarkView } from "~/features/trust/verification-rules";

export const INTERNAL_DIRECTORY_PAGE_SIZE = 24;

export type InternalDirectoryActor = { profile: { id: string } };

/** The internal directory row of spec §3, as a card needs it. */
export type InternalDirectoryRow = {
  id: string;
  firstName: string;
  lastName: string;
  company: string;
  profession: string;
  professionLabel: string;
  locationCity: string | null;
  locationDepartment: string | null;
  sectors: string[];
  membershipType: "freemium" | "premium" | "founding_member";
  premium: boolean;
  photoUrl: string | null;
  /** Premium members only (an enriched-profile field). */
  logoUrl: string | null;
  /** Premium members only (spec §2: internal presentation for premium members). */
  internalPresentation: string | null;
  createdAt: string;
  activeBuyerMandates: number;
  activeSellerMandates: number;
  last12MonthsBuyerMandates: number;
  last12MonthsSellerMandates: number;
  /** The "Profil vérifié" mark as members see it (the insurance to renew shows to admins only). */
  verification: VerificationMarkView | null;
  /** Badges earned by behaviour, and 'Expert Agréé' (the founding badge shows apart). */
  badges: BadgeKind[];
  /** Visible ratings received (average of the three criteria), null without any. */
  ratings: { average: number; count: number } | null;
  /** Answers within 7 days over the last 90 days; null below the minimum of data (members only). */
  responsiveness: Responsiveness | null;
};

export type InternalDirectoryPage = { rows: InternalDirectoryRow[]; total: number; page: number; pageCount: number };

type Row = ReputationColumns & ResponsivenessColumns & {
  total: number | string;
  matching: number | string;
  verification_summary: StoredVerificationSummary;
  insurance_valid_until: string | null;
  id: string | null;
  first_name: string;
  last_name: string;
  company: string;
  profession: string;
  location_city: string | null;
  location_department: string | null;
  specialization_sectors: string[] | null;
  membership_type: InternalDirectoryRow["membershipType"];
  photo_url: string | null;
  logo_url: string | null;
  internal_presentation: string | null;
  created_at: string | Date;
  active_buyer: number | string;
  active_seller: number | string;
  recent_buyer: number | string;
  recent_seller: number | string;
};

/** A card's profile columns, read from `profiles p`. */
const PROFILE_COLUMNS = sql`p.id, p.first_name, p.last_name, p.company, p.profession::text as profession,
             p.location_city, p.location_department, p.specialization_sectors,
             p.membership_type::text as membership_type, p.photo_url,
             case when p.membership_type <> 'freemium' then p.logo_url end as logo_url,
             case when p.membership_type <> 'freemium' then p.internal_presentation end as internal_presentation,
             p.created_at, (p.membership_type = 'freemium') as standard,
             p.verification_summary, p.insurance_valid_until::text as insurance_valid_until`;

/** A card's columns, from its profile (`pg`), its mandate counts (`m`) and its reputation (`rep`). */
const CARD_COLUMNS = sql`pg.id, pg.first_name, pg.last_name, pg.company, pg.profession, pg.location_city,
           pg.location_department, pg.specialization_sectors, pg.membership_type, pg.photo_url,
           pg.logo_url, pg.internal_presentation, pg.created_at, pg.verification_summary, pg.insurance_valid_until,
           ${REPUTATION_COLUMNS}, ${RESPONSIVENESS_COLUMNS},
           coalesce(m.active_buyer, 0) as active_buyer, coalesce(m.active_seller, 0) as active_seller,
           coalesce(m.recent_buyer, 0) as recent_buyer, coalesce(m.recent_seller, 0) as recent_seller`;

/** The mandate counts of each card's member (the page's rows only) and their reputation. */
const CARD_JOINS = sql`left join lateral (
      select count(*) filter (where mm.mandate_type = 'buyer' and mm.status = 'active' and mm.end_date >= current_date)::int as active_buyer,
             count(*) filter (where mm.mandate_type = 'seller' and mm.status = 'active' and mm.end_date >= current_date)::int as active_seller,
             count(*) filter (where mm.mandate_type = 'buyer' and mm.created_at >= now() - interval '12 months')::int as recent_buyer,
             count(*) filter (where mm.mandate_type = 'seller' and mm.created_at >= now() - interval '12 months')::int as recent_seller
      from mandates mm
      where mm.profile_id = pg.id
    ) m on pg.id is not null
    left join member_reputation rep on rep.profile_id = pg.id`;

/**
 * One page of peers. "Active" mandates are those with status active whose end date is not past
 * (an active mandate past its end date is displayed as expired, spec §4); "last 12 months"
 * counts the mandates created in the last 12 months, whatever their status.
 */
export async function searchInternalDirectory(
  actor: InternalDirectoryActor,
  query: Pick<DirectoryQuery, "q" | "departement" | "secteur" | "profession" | "page">,
): Promise<InternalDirectoryPage> {
  const matching = directoryWhere(query);
  const where = sql`${matching} and p.id <> ${actor.profile.id}::uuid`;
  const requested = Math.max(1, query.page);
  const offset = (requested - 1) * INTERNAL_DIRECTORY_PAGE_SIZE;
  const today = parisToday();
  const counts = getCache("profile-totals");
  const searchKey = directoryCountKey(query);
  const countKey = `directory:${searchKey}`;

  // A page this member saw since the last write to profiles: which members it shows,
  // in which order, and the total are known; only their cards are read, by primary key — a
  // search's statement otherwise reads every match to sort them. The search's conditions are
  // checked again on those rows: a profile written meanwhile (its notification not yet here)
  // sends the page back to the full statement.
  const pageKey = `directory-page:${actor.profile.id}:${requested}:${searchKey}`;
  const slot = keptPage(counts, pageKey);
  const kept = slot.page;
  if (kept) {
    // The conditions are a column, not a filter: as a filter, PostgreSQL would read them through
    // the search's index again (every match) rather than the 24 rows by primary key.
    const rows = await queryRows<Row & { still_matching: boolean }>(sql`
      select ${kept.total}::int as total, 0 as matching, ${CARD_COLUMNS}, pg.still_matching
      from unnest(array[${sql.join(
        kept.ids.map((id) => sql`${id}`),
        sql`, `,
      )}]::uuid[]) with ordinality as k(id, ord)
      join lateral (select ${PROFILE_COLUMNS}, (${where}) as still_matching from profiles p where p.id = k.id) pg on true
      ${CARD_JOINS}
      order by k.ord`);
    if (rows.length === kept.ids.length && rows.every((r) => r.still_matching === true)) {
      const pageCount = Math.max(1, Math.ceil(kept.total / INTERNAL_DIRECTORY_PAGE_SIZE));
      return { rows: rows.map((r) => toRow(r, today)), total: kept.total, page: requested, pageCount };
    }
  }

  // The total of validated members matching the search, the actor included, is kept by the
  // instance until a profile is written (app/lib/cache.server.ts): counting the whole
  // membership on every page cost more than the page itself. The actor's own match is read by
  // primary key and subtracted.
  const cached = counts?.lookup(countKey);
  const totals =
    cached?.value === undefined
      ? sql`(select count(*)::int as matching, count(*) filter (where p.id = ${actor.profile.id}::uuid)::int as own
           from profiles p where ${matching}) t`
      : sql`(select ${cached.value}::int as matching,
                  (select count(*)::int from profiles p where p.id = ${actor.profile.id}::uuid and ${matching}) as own) t`;
  // The totals row always comes back (left join), even when the page is empty, so that a page
  // number past the end is answered without a second round trip in the common case.
  const rows = await queryRows<Row>(sql`
    select t.matching - t.own as total, t.matching, ${CARD_COLUMNS}
    from ${totals}
    left join lateral (
      select ${PROFILE_COLUMNS}
      from profiles p
      where ${where}
      order by (p.membership_type = 'freemium'), p.created_at desc nulls last, p.id
      limit ${INTERNAL_DIRECTORY_PAGE_SIZE} offset ${offset}
    ) pg on true
    ${CARD_JOINS}
    order by pg.standard, pg.created_at desc nulls last, pg.id`);
  if (counts && cached && cached.value === undefined && rows[0]) counts.store(countKey, Number(rows[0].matching), cached.generation);
  const total = Number(rows[0]?.total ?? 0);
  const pageCount = Math.max(1, Math.ceil(total / INTERNAL_DIRECTORY_PAGE_SIZE));
  const found = rows.filter((r) => r.id !== null).map((r) => toRow(r, today));
  if (found.length === 0 && total > 0 && requested > pageCount) {
    // A stale link past the last page: show the last page instead of an empty list.
    return searchInternalDirectory(actor, { ...query, page: pageCount });
  }
  slot.keep({ total, ids: found.map((r) => r.id) });
  return { rows: found, total, page: Math.min(requested, pageCount), pageCount };
}

function toRow(r: Row, today: string): InternalDirectoryRow {
  const reputation = reputationFromColumns(r);
  const sectors = r.specialization_sectors ?? [];
  return {
    id: r.id!,
    firstName: r.first_name,
    lastName: r.last_name,
    company: r.company,
    profession: r.profession,
    professionLabel: professionLabel(r.profession),
    locationCity: r.location_city,
    locationDepartment: r.location_department,
    sectors: r.specialization_sectors ?? [],
    membershipType: r.membership_type,
    premium: isPremium(r.membership_type),
    photoUrl: r.photo_url,
    logoUrl: r.logo_url,
    internalPresentation: r.internal_presentation,
    createdAt: new Date(r.created_at).toISOString(),
    activeBuyerMandates: Number(r.active_buyer),
    activeSellerMandates: Number(r.active_seller),
    last12MonthsBuyerMandates: Number(r.recent_buyer),
    last12MonthsSellerMandates: Number(r.recent_seller),
    verification: verificationMark(r.verification_summary, r.insurance_valid_until, today),
    badges: [
      ...profileBadges({ membershipType: r.membership_type, certifiedDealsCount: 0, sectorsCount: sectors.length }).filter((b) => b !== "founding-member"),
      ...reputationBadges(reputation),
    ],
    ratings: reputation.ratingsCount > 0 && reputation.ratingAverage !== null ? { average: reputation.ratingAverage, count: reputation.ratingsCount } : null,
    responsiveness: responsiveness(responsivenessFromColumns(r)),
  };
}
