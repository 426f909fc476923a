// A mandate as another member sees it: the client code and the business criteria, and the owner's
// professional identity. No client name, no client address: those columns are simply not in
// this list (DESIGN §4.3). Every projection shown to someone other than the owner goes through
// here, and tests assert that the keys below never grow a client identity.
import { type SQL, sql } from "drizzle-orm";
import { queryRows } from "~/db/query.server";
import type { MandateStatus, MandateType } from "~/features/mandates/mandate-rules";
import type { MandateCriteria, MandateRow } from "~/features/mandates/mandate-row";

export type CounterpartMandate = Pick<MandateRow, "id" | "status" | "isExclusive" | "startDate" | "endDate" | "clientCode" | "description"> &
  MandateCriteria & {
    createdAt: string;
    owner: { profileId: string; firstName: string; lastName: string; company: string };
  };

/** Keys of CounterpartMandate, for tests that guard the projection. */
export const COUNTERPART_KEYS = [
  "id", "mandateType", "status", "isExclusive", "startDate", "endDate", "clientCode", "description",
  "searchSectors", "searchTerritories", "targetAmountMin", "targetAmountMax", "contributionMin",
  "contributionMax", "maUsage", "companySector", "companyTerritory", "companyDescription", "valuationAmount",
  "requiredContributionMin", "requiredContributionMax", "projectTimeline", "targetBuyerTypes", "createdAt", "owner",
] as const satisfies ReadonlyArray<keyof CounterpartMandate>;

/**
 * The column list, for a mandates alias `m` and a profiles alias `p` (owner). Aliases are code
 * constants, never input.
 */
export function counterpartColumns(m: string, p: string): SQL {
  return sql.raw(`${m}.id as cp_id, ${m}.mandate_type::text as cp_mandate_type, ${m}.status::text as cp_status,
    ${m}.is_exclusive as cp_is_exclusive, ${m}.start_date::text as cp_start_date, ${m}.end_date::text as cp_end_date,
    ${m}.client_code as cp_client_code, ${m}.description as cp_description,
    ${m}.search_sectors as cp_search_sectors, ${m}.search_territories as cp_search_territories,
    ${m}.target_amount_min as cp_target_amount_min, ${m}.target_amount_max as cp_target_amount_max,
    ${m}.contribution_min as cp_contribution_min, ${m}.contribution_max as cp_contribution_max,
    ${m}.ma_usage::text as cp_ma_usage, ${m}.company_sector as cp_company_sector,
    ${m}.company_territory as cp_company_territory, ${m}.company_description as cp_company_description,
    ${m}.valuation_amount as cp_valuation_amount, ${m}.required_contribution_min as cp_required_contribution_min,
    ${m}.required_contribution_max as cp_required_contribution_max, ${m}.project_timeline::text as cp_project_timeline,
    ${m}.target_buyer_types::text[] as cp_target_buyer_types, ${m}.created_at as cp_created_at,
    ${p}.id as cp_owner_id, ${p}.first_name as cp_owner_first_name, ${p}.last_name as cp_owner_last_name,
    ${p}.company as cp_owner_company`);
}

export type CounterpartRow = {
  cp_id: string;
  cp_mandate_type: MandateType;
  cp_status: MandateStatus;
  cp_is_exclusive: boolean;
  cp_start_date: string;
  cp_end_date: string;
  cp_client_code: string;
  cp_description: string | null;
  cp_search_sectors: string[] | null;
  cp_search_territories: string[] | null;
  cp_target_amount_min: number | string | null;
  cp_target_amount_max: number | string | null;
  cp_contribution_min: number | string | null;
  cp_contribution_max: number | string | null;
  cp_ma_usage: MandateRow["maUsage"];
  cp_company_sector: string | null;
  cp_company_territory: string | null;
  cp_company_description: string | null;
  cp_valuation_amount: number | string | null;
  cp_required_contribution_min: number | string | null;
  cp_required_contribution_max: number | string | null;
  cp_project_timeline: MandateRow["projectTimeline"];
  cp_target_buyer_types: MandateRow["targetBuyerTypes"] | string;
  cp_created_at: Date | string;
  cp_owner_id: string;
  cp_owner_first_name: string;
  cp_owner_last_name: string;
  cp_owner_company: string;
};

/** bigint arrives as a string from node-postgres and as a number from PGlite. */
export function num(value: number | string | null | undefined): number | null {
  return value === null || value === undefined ? null : Number(value);
}

/** A text[] of an enum type may arrive as its literal ('{a,b}') from node-postgres. */
function textArray(value: string[] | string | null): string[] | null {
  if (value === null) return null;
  if (Array.isArray(value)) return value;
  const inner = value.replace(/^\{|\}$/g, "");
  return inner ? inner.split(",").map((s) => s.replace(/^"|"$/g, "")) : [];
}

export function toCounterpart(r: CounterpartRow): CounterpartMandate {
  return {
    id: r.cp_id,
    mandateType: r.cp_mandate_type,
    status: r.cp_status,
    isExclusive: r.cp_is_exclusive,
    startDate: r.cp_start_date,
    endDate: r.cp_end_date,
    clientCode: r.cp_client_code,
    description: r.cp_description,
    searchSectors: r.cp_search_sectors,
    searchTerritories: r.cp_search_territories,
    targetAmountMin: num(r.cp_target_amount_min),
    targetAmountMax: num(r.cp_target_amount_max),
    contributionMin: num(r.cp_contribution_min),
    contributionMax: num(r.cp_contribution_max),
    maUsage: r.cp_ma_usage,
    companySector: r.cp_company_sector,
    companyTerritory: r.cp_company_territory,
    companyDescription: r.cp_company_description,
    valuationAmount: num(r.cp_valuation_amount),
    requiredContributionMin: num(r.cp_required_contribution_min),
    requiredContributionMax: num(r.cp_required_contribution_max),
    projectTimeline: r.cp_project_timeline,
    targetBuyerTypes: textArray(r.cp_target_buyer_types) as MandateRow["targetBuyerTypes"],
    createdAt: new Date(r.cp_created_at).toISOString(),
    owner: {
      profileId: r.cp_owner_id,
      firstName: r.cp_owner_first_name,
      lastName: r.cp_owner_last_name,
      company: r.cp_owner_company,
    },
  };
}

/** Counterpart projections of the given mandates (any owner), by id. */
export async function getCounterparts(ids: readonly string[]): Promise<Map<string, CounterpartMandate>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await queryRows<CounterpartRow>(sql`
    select ${counterpartColumns("m", "p")}
    from mandates m join profiles p on p.id = m.profile_id
    where m.id in (${sql.join(
      unique.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
  return new Map(rows.map((r) => [r.cp_id, toCounterpart(r)]));
}
