// Measures run inside the benchmark process against the benchmark database (before the server
// starts: with PGlite, only one process may hold the data dir).
import { gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { queryRows } from "~/db/query.server";
import { searchDirectory } from "~/features/directory/directory.server";
import { rankCandidates, POTENTIAL_MATCHES_LIMIT, type MatchSource } from "~/features/matching/matching.server";
import { isPremium } from "~/auth/permissions";
import { profileSlug } from "~/lib/slug";
import type { PublicProfile } from "~/features/profiles/public-profile.server";
import { percentile } from "./load";

export type Timing = { runs: number; p50: number; p95: number; max: number };

function timing(times: number[]): Timing {
  const sorted = [...times].sort((a, b) => a - b);
  return { runs: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1] };
}

export async function pickSlugs(count: number): Promise<string[]> {
  const rows = await queryRows<{ id: string; first_name: string; last_name: string; profession: string }>(sql`
    select id, first_name, last_name, profession::text as profession from profiles
    where profile_status = 'validated' order by random() limit ${count}`);
  return rows.map((r) => profileSlug({ firstName: r.first_name, lastName: r.last_name, profession: r.profession, id: r.id }));
}

export async function commonSurname(): Promise<{ name: string; count: number }> {
  const [row] = await queryRows<{ last_name: string; n: number }>(sql`
    select last_name, count(*)::int as n from profiles where profile_status = 'validated'
    group by last_name order by n desc, last_name limit 1`);
  return { name: row.last_name, count: row.n };
}

export async function countRows(): Promise<{ validated: number; activeMandates: number; files: number }> {
  const [row] = await queryRows<{ validated: number; active: number; files: number }>(sql`
    select (select count(*)::int from profiles where profile_status = 'validated') as validated,
           (select count(*)::int from mandates where status = 'active') as active,
           (select count(*)::int from collaboration_files) as files`);
  return { validated: row.validated, activeMandates: row.active, files: row.files };
}

/** searchDirectory (count + page, as the /annuaire loader runs it) with department 75 and sector G. */
export async function timeDirectorySql(runs: number): Promise<Timing & { total: number }> {
  const query = { q: "", departement: "75", secteur: "G", profession: undefined, page: 1 } as const;
  let total = 0;
  for (let i = 0; i < 5; i++) total = (await searchDirectory(query)).total;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await searchDirectory(query);
    times.push(performance.now() - t0);
  }
  return { ...timing(times), total };
}

type MandateRow = {
  id: string;
  profile_id: string;
  mandate_type: "buyer" | "seller";
  search_sectors: string[] | null;
  search_territories: string[] | null;
  target_amount_min: string | number | null;
  target_amount_max: string | number | null;
  contribution_min: string | number | null;
  contribution_max: string | number | null;
  company_sector: string | null;
  company_territory: string | null;
  valuation_amount: string | number | null;
  required_contribution_min: string | number | null;
  required_contribution_max: string | number | null;
};

const num = (v: string | number | null) => (v === null ? null : Number(v));

/** `count` random active mandates, as the matcher sees them. */
export async function sampleMatchSources(count: number): Promise<MatchSource[]> {
  const sample = await queryRows<MandateRow>(sql`
    select id, profile_id, mandate_type::text as mandate_type, search_sectors, search_territories, target_amount_min,
      target_amount_max, contribution_min, contribution_max, company_sector, company_territory, valuation_amount,
      required_contribution_min, required_contribution_max
    from mandates where status = 'active' order by random() limit ${count}`);
  return sample.map((r) => ({
    id: r.id,
    profileId: r.profile_id,
    mandateType: r.mandate_type,
    searchSectors: r.search_sectors,
    searchTerritories: r.search_territories,
    targetAmountMin: num(r.target_amount_min),
    targetAmountMax: num(r.target_amount_max),
    contributionMin: num(r.contribution_min),
    contributionMax: num(r.contribution_max),
    companySector: r.company_sector,
    companyTerritory: r.company_territory,
    valuationAmount: num(r.valuation_amount),
    requiredContributionMin: num(r.required_contribution_min),
    requiredContributionMax: num(r.required_contribution_max),
  }));
}

/**
 * The 'Mandats potentiels' ranking (top `limit`) of `runs` random active mandates, after 5
 * warm-up rankings (caches, first plans). Also used by scripts/bench-matching.ts.
 */
export async function timeMatching(runs: number, limit = POTENTIAL_MATCHES_LIMIT, sources?: MatchSource[]): Promise<Timing> {
  const pool = sources ?? (await sampleMatchSources(runs));
  if (pool.length === 0) return { runs: 0, p50: Number.NaN, p95: Number.NaN, max: Number.NaN };
  for (const s of pool.slice(0, 5)) await rankCandidates(s, { limit });
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = pool[i % pool.length];
    const t0 = performance.now();
    await rankCandidates(s, { limit });
    times.push(performance.now() - t0);
  }
  return timing(times);
}

type ProfileRow = {
  id: string; first_name: string; last_name: string; company: string; profession: string;
  location_city: string | null; location_department: string | null; full_address: string | null;
  photo_url: string | null; logo_url: string | null; linkedin_url: string | null;
  detailed_presentation: string | null; experience_description: string | null; recent_operations: string | null;
  specialization_sectors: string[] | null; conseil_type: string | null;
  membership_type: PublicProfile["membershipType"]; created_at: Date | string;
};
type DealRow = { id: string; profile_id: string; year: number; sector: string; acquirer_cedant: string; deal_description: string | null };

export type WholeList = { profiles: number; jsonBytes: number; gzipBytes: number; buildMs: number; parseMs: number; totalMs: number };

/**
 * The prototype's approach (get_public_profiles): one response with every validated public
 * profile (the public projection, certified deals included), gzip-compressed, then parsed by the
 * client before the first result can be shown. Median of `runs`.
 */
export async function wholeListApproach(runs: number): Promise<WholeList> {
  const results: WholeList[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const rows = await queryRows<ProfileRow>(sql`
      select id, first_name, last_name, company, profession::text as profession, location_city, location_department,
        full_address, photo_url, logo_url, linkedin_url, detailed_presentation, experience_description,
        recent_operations, specialization_sectors, conseil_type, membership_type::text as membership_type, created_at
      from profiles where profile_status = 'validated' order by created_at desc`);
    const deals = await queryRows<DealRow>(sql`
      select d.id, d.profile_id, d.year, d.sector, d.acquirer_cedant, d.deal_description
      from certified_deals d join profiles p on p.id = d.profile_id
      where d.status = 'validated' and p.profile_status = 'validated' and p.membership_type <> 'freemium'
      order by d.year desc, d.created_at desc`);
    const byProfile = new Map<string, PublicProfile["certifiedDeals"]>();
    for (const d of deals) {
      const list = byProfile.get(d.profile_id) ?? [];
      // The prototype predates the disclosure choice (issue 27 §5); its projection is kept as measured.
      list.push({ id: d.id, year: d.year, sector: d.sector, title: d.acquirer_cedant, dealDescription: d.deal_description, named: true });
      byProfile.set(d.profile_id, list);
    }
    // The prototype's projection: without the closings count (issue 13), the verification mark,
    // the reputation badges and the ratings (issue 14).
    const list: Array<Omit<PublicProfile, "closingsCount" | "verification" | "reputationBadges" | "ratings">> = rows.map((p) => {
      const premium = isPremium(p.membership_type);
      return {
        id: p.id,
        slug: profileSlug({ firstName: p.first_name, lastName: p.last_name, profession: p.profession, id: p.id }),
        firstName: p.first_name,
        lastName: p.last_name,
        company: p.company,
        profession: p.profession,
        locationCity: p.location_city,
        locationDepartment: p.location_department,
        fullAddress: p.full_address,
        photoUrl: p.photo_url,
        logoUrl: p.logo_url,
        linkedinUrl: p.linkedin_url,
        detailedPresentation: premium ? p.detailed_presentation : null,
        experienceDescription: p.experience_description,
        recentOperations: p.recent_operations,
        specializationSectors: p.specialization_sectors ?? [],
        conseilType: p.conseil_type,
        membershipType: p.membership_type,
        createdAt: new Date(p.created_at).toISOString(),
        certifiedDeals: premium ? (byProfile.get(p.id) ?? []) : [],
      };
    });
    const json = JSON.stringify(list);
    const gz = gzipSync(json);
    const t1 = performance.now();
    JSON.parse(json);
    const t2 = performance.now();
    results.push({
      profiles: list.length,
      jsonBytes: Buffer.byteLength(json),
      gzipBytes: gz.length,
      buildMs: t1 - t0,
      parseMs: t2 - t1,
      totalMs: t2 - t0,
    });
  }
  results.sort((a, b) => a.totalMs - b.totalMs);
  return results[Math.floor(results.length / 2)];
}
