// The public directory: search, filters, sort and pagination run in SQL (the prototype
// downloaded every profile and filtered in the browser). Only the public projection leaves, with
// its labels resolved (sector names, badges): the page's bundle has no reference table.
import { type SQL, sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { professionLabel, sectorName } from "~/db/reference";
import { normalizeSearchText } from "~/db/search-text";
import { isPremium } from "~/auth/permissions";
import { profileSlug } from "~/lib/slug";
import { parisToday } from "~/features/mandates/mandate-rules";
import { REPUTATION_COLUMNS, reputationFromColumns, type ReputationColumns } from "~/features/trust/reputation.server";
import { reputationBadges } from "~/features/trust/reputation-rules";
import { type StoredVerificationSummary, verificationMark, type VerificationMarkView } from "~/features/trust/verification-rules";
import { type BadgeKind, profileBadges } from "~/features/trust/badges";
import { publicDealView } from "~/features/deals/deal-disclosure";
import { dealsSummary, presentationExcerpt, sectorChips, STANDARD_SECTOR_LABEL_MAX } from "./card-rules";
import { DIRECTORY_PAGE_SIZE, type DirectoryQuery } from "./directory.schema";
import { sectorNames } from "./labels.server";

/** `title`: the parties only when the member named them, else the anonymised line. */
export type DirectoryDeal = { year: number; sectorName: string; title: string };

/** Sector chips of a card: the label shown (cut on standard cards) and the full name (title). */
export type CardSectors = {
  shown: Array<{ label: string; name: string }>;
  /** '+N autres', titled with the hidden names. */
  more: { label: string; names: string } | null;
};

/**
 * A directory card: the public projection of spec §3 "Public profile", trimmed for a card, with
 * what it displays resolved by the display rules of ./card-rules (profession label, sector chips,
 * badges, presentation excerpt, '+N autres transactions certifiées') instead of codes and counts.
 */
export type DirectoryCard = {
  id: string;
  slug: string;
  firstName: string;
  lastName: string;
  company: string;
  professionLabel: string;
  locationCity: string | null;
  locationDepartment: string | null;
  photoUrl: string | null;
  logoUrl: string | null;
  premium: boolean;
  /** Premium cards: the presentation cut at 200 characters ('Lire la suite' when truncated). */
  presentation: { text: string; truncated: boolean } | null;
  sectors: CardSectors;
  /** Derived badges, then those earned by behaviour (stored reputation, one join). */
  badges: BadgeKind[];
  /** The "Profil vérifié" mark (public audience), from the summary stored on the profile. */
  verification: VerificationMarkView | null;
  /** Premium cards: the 3 latest validated deals. */
  deals: DirectoryDeal[];
  moreDealsLabel: string | null;
};

type MembershipType = "freemium" | "premium" | "founding_member";

export type DirectoryPage = { cards: DirectoryCard[]; total: number; page: number; pageCount: number };

function escapeLike(value: string) {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The words of a search, as directoryWhere matches them. */
function searchWords(q: string | undefined): string[] {
  return normalizeSearchText(q ?? "").split(" ").filter(Boolean).slice(0, 6);
}

/** Two queries with the same key select the same members (the count cache's key). */
export function directoryCountKey(query: Pick<DirectoryQuery, "q" | "departement" | "secteur" | "profession">): string {
  return JSON.stringify([searchWords(query.q), query.departement ?? "", query.secteur ?? "", query.profession ?? ""]);
}

export function directoryWhere(query: Pick<DirectoryQuery, "q" | "departement" | "secteur" | "profession">): SQL {
  const parts: SQL[] = [sql`p.profile_status = 'validated'`];
  // Every word must appear (in any order), each matched with the trigram index.
  const words = searchWords(query.q);
  for (const word of words) parts.push(sql`p.search_text like ${`%${escapeLike(word)}%`}`);
  if (query.departement) parts.push(sql`p.location_department = ${query.departement}`);
  if (query.secteur) parts.push(sql`p.specialization_sectors @> array[${query.secteur}]::text[]`);
  if (query.profession) {
    parts.push(sql`(p.profession = ${query.profession}::profession or p.conseil_type = ${query.profession})`);
  }
  return sql.join(parts, sql` and `);
}

type Row = ReputationColumns & {
  id: string;
  verification_summary: StoredVerificationSummary;
  insurance_valid_until: string | null;
  first_name: string;
  last_name: string;
  company: string;
  profession: string;
  location_city: string | null;
  location_department: string | null;
  photo_url: string | null;
  logo_url: string | null;
  membership_type: MembershipType;
  detailed_presentation: string | null;
  specialization_sectors: string[];
  deals_count: number | string;
  deals: Array<DirectoryDealRow> | string | null;
};

type DirectoryDealRow = {
  year: number;
  sector: string;
  acquirer_cedant: string | null;
  disclosure: string;
  size_band: string | null;
  region: string | null;
  parties_consent_at: string | null;
};

/** `handle`: the public directory reads through the read replica (app/db/read-replica.server.ts). */
export async function searchDirectory(query: DirectoryQuery, handle: Db = db): Promise<DirectoryPage> {
  const where = directoryWhere(query);
  const [{ total }] = await queryRows<{ total: number | string }>(
    sql`select count(*)::int as total from profiles p where ${where}`,
    handle,
  );
  const totalCount = Number(total);
  const pageCount = Math.max(1, Math.ceil(totalCount / DIRECTORY_PAGE_SIZE));
  const page = Math.min(query.page, pageCount);
  const offset = (page - 1) * DIRECTORY_PAGE_SIZE;
  if (totalCount === 0) return { cards: [], total: 0, page: 1, pageCount: 1 };
  // Certified deals are a premium feature (spec §6): only premium cards carry them.
  const rows = await queryRows<Row>(sql`
    select p.id, p.first_name, p.last_name, p.company, p.profession::text as profession,
           p.location_city, p.location_department, p.photo_url, p.logo_url,
           p.membership_type::text as membership_type,
           case when p.membership_type <> 'freemium' then p.detailed_presentation end as detailed_presentation,
           p.specialization_sectors, p.verification_summary, p.insurance_valid_until::text as insurance_valid_until, ${REPUTATION_COLUMNS},
           case when p.membership_type = 'freemium' then 0 else
             (select count(*) from certified_deals d where d.profile_id = p.id and d.status = 'validated') end
             as deals_count,
           case when p.membership_type = 'freemium' then null else
             (select json_agg(x) from (
                select d.year, d.sector, d.disclosure, d.size_band, d.region, d.parties_consent_at,
                       case when d.disclosure = 'named' and d.parties_consent_at is not null then d.acquirer_cedant end as acquirer_cedant
                from certified_deals d
                where d.profile_id = p.id and d.status = 'validated'
                order by d.year desc, d.created_at desc limit 3) x) end as deals
    from profiles p
    left join member_reputation rep on rep.profile_id = p.id
    where ${where}
    order by (p.membership_type = 'freemium'), p.created_at desc nulls last, p.id
    limit ${DIRECTORY_PAGE_SIZE} offset ${offset}`, handle);
  const today = parisToday();
  return { cards: rows.map((r) => toCard(r, today)), total: totalCount, page, pageCount };
}

function toCard(r: Row, today: string): DirectoryCard {
  const deals = typeof r.deals === "string" ? (JSON.parse(r.deals) as NonNullable<Exclude<Row["deals"], string>>) : r.deals;
  const sectors = r.specialization_sectors ?? [];
  const dealsCount = Number(r.deals_count);
  const premium = isPremium(r.membership_type);
  const names = sectorNames(sectors);
  const chips = sectorChips(names, premium ? undefined : STANDARD_SECTOR_LABEL_MAX);
  const summary = dealsSummary(deals ?? [], dealsCount);
  return {
    id: r.id,
    slug: profileSlug({ firstName: r.first_name, lastName: r.last_name, profession: r.profession, id: r.id }),
    firstName: r.first_name,
    lastName: r.last_name,
    company: r.company,
    professionLabel: professionLabel(r.profession),
    locationCity: r.location_city,
    locationDepartment: r.location_department,
    photoUrl: r.photo_url,
    logoUrl: r.logo_url,
    premium,
    presentation: premium ? presentationExcerpt(r.detailed_presentation) : null,
    sectors: {
      shown: chips.shown.map((label, i) => ({ label, name: names[i] })),
      more: chips.moreLabel ? { label: chips.moreLabel, names: chips.hidden.join(", ") } : null,
    },
    // Standard cards count no deals (a premium feature): no 'Deals Certifiés' badge either.
    badges: [
      ...profileBadges({ membershipType: r.membership_type, certifiedDealsCount: dealsCount, sectorsCount: sectors.length }),
      ...reputationBadges(reputationFromColumns(r)),
    ],
    verification: verificationMark(r.verification_summary, r.insurance_valid_until, today),
    deals: summary.shown.map((d) => {
      const view = publicDealView({
        year: d.year,
        sector: d.sector,
        acquirerCedant: d.acquirer_cedant ?? "",
        dealDescription: null,
        disclosure: d.disclosure,
        sizeBand: d.size_band,
        region: d.region,
        partiesConsentAt: d.parties_consent_at,
      });
      return { year: d.year, sectorName: sectorName(d.sector), title: view.title };
    }),
    moreDealsLabel: summary.moreLabel,
  };
}
