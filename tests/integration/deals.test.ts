// Certified deals, the member's side (spec §3 "Certified deal", §4, §5 "Deal reference").
import { parseWithZod } from "@conform-to/zod/v4";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { certifiedDeals } from "~/db/schema";
import { DEAL_MESSAGES, dealSchema, type DealInput } from "~/features/deals/deal.schema";
import { createOwnDeal, deleteOwnDeal, listOwnDeals, updateOwnDeal } from "~/features/deals/deals.server";
import { memberActor } from "~/auth/actor";
import { getPublicProfile } from "~/features/profiles/public-profile.server";
import { getEnv, setEnv } from "~/lib/env.server";
import { action } from "~/routes/member/dashboard/profile";
import { createDeal, createMember, makeAdmin, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { sessionCookie } from "../support/session";

const t = useTestDatabase();

beforeAll(() => {
  setEnv({ ...getEnv(), BETTER_AUTH_SECRET: "test-secret-for-deal-tests-0123456789abcdef" });
});

const year = new Date().getFullYear();
const reference = (overrides: Partial<DealInput> = {}): DealInput => ({
  year: year - 1,
  sector: "C",
  acquirerCedant: "Cession d'une PME de mécanique à un groupe familial",
  dealDescription: "Accompagnement côté cédant",
  ...overrides,
});

async function member(membershipType: "premium" | "founding_member" | "freemium" = "premium") {
  return createMember(t.db!, { profile: { membershipType, profileStatus: "validated", onboardingStatus: "validated" } });
}

async function dealRow(id: string) {
  const [row] = await t.db!.select().from(certifiedDeals).where(eq(certifiedDeals.id, id));
  return row;
}

function form(values: Record<string, string>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(values)) fd.append(k, v);
  return fd;
}

async function post(m: CreatedMember, values: Record<string, string>) {
  const request = new Request("http://localhost:3000/dashboard/profil", { method: "POST", body: form(values), headers: { cookie: await sessionCookie(m) } });
  return action({ request, params: {}, context: { requestId: "test", nonce: "" } } as unknown as Parameters<typeof action>[0]);
}

function statusOf(result: unknown): number {
  if (result instanceof Response) return result.status;
  return (result as { init?: { status?: number } | null }).init?.status ?? 200;
}

describe("deal form schema", () => {
  const parse = (values: Record<string, string>) => parseWithZod(form(values), { schema: dealSchema() });
  const errorsOf = (submission: ReturnType<typeof parse>) => (submission.status === "error" ? submission.error : undefined);

  it("requires year, sector and transaction with the spec's message; description optional", () => {
    const submission = parse({});
    expect(submission.status).toBe("error");
    expect(errorsOf(submission)).toMatchObject({
      year: [DEAL_MESSAGES.required],
      sector: [DEAL_MESSAGES.required],
      acquirerCedant: [DEAL_MESSAGES.required],
    });
    expect(DEAL_MESSAGES.required).toBe("Veuillez remplir tous les champs obligatoires");
    expect(parse({ year: String(year), sector: "K", acquirerCedant: "  Reprise  " })).toMatchObject({
      status: "success",
      value: { year, sector: "K", acquirerCedant: "Reprise" },
    });
  });

  it("offers the last 20 years, the current one included", () => {
    expect(parse({ year: String(year), sector: "C", acquirerCedant: "x" }).status).toBe("success");
    expect(parse({ year: String(year - 19), sector: "C", acquirerCedant: "x" }).status).toBe("success");
    for (const bad of [String(year - 20), String(year + 1), "deux mille"]) {
      expect(parse({ year: bad, sector: "C", acquirerCedant: "x" }).status).toBe("error");
    }
  });

  it("refuses a sector outside the NAF sections", () => {
    expect(errorsOf(parse({ year: String(year), sector: "Z", acquirerCedant: "x" }))?.sector).toEqual([DEAL_MESSAGES.required]);
  });
});

describe("deal state changes", () => {
  it("a new reference is pending and listed for its owner only", async () => {
    const m = await member();
    const other = await member();
    const { id } = await createOwnDeal(memberActor(m.profile), reference());
    expect(await dealRow(id)).toMatchObject({ profileId: m.profile.id, status: "pending", year: year - 1, sector: "C", rejectionReason: null });
    expect((await listOwnDeals(memberActor(m.profile))).map((d) => d.id)).toEqual([id]);
    expect(await listOwnDeals(memberActor(other.profile))).toEqual([]);
  });

  it("editing a pending reference keeps it pending with the new values", async () => {
    const m = await member("founding_member");
    const { id } = await createOwnDeal(memberActor(m.profile), reference());
    await updateOwnDeal(memberActor(m.profile), id, reference({ year, sector: "G", acquirerCedant: "Reprise d'une pharmacie", dealDescription: undefined }));
    expect(await dealRow(id)).toMatchObject({ status: "pending", year, sector: "G", acquirerCedant: "Reprise d'une pharmacie", dealDescription: null });
  });

  it("editing a rejected reference sends it back to pending and clears the reason", async () => {
    const m = await member();
    const deal = await createDeal(t.db!, m.profile.id, { status: "rejected", rejectionReason: "Montant invérifiable", year: year - 2 });
    const listed = await listOwnDeals(memberActor(m.profile));
    expect(listed[0]).toMatchObject({ status: "rejected", rejectionReason: "Montant invérifiable" });
    await updateOwnDeal(memberActor(m.profile), deal.id, reference());
    expect(await dealRow(deal.id)).toMatchObject({ status: "pending", rejectionReason: null, validatedAt: null, validatedBy: null });
  });

  it("a validated reference cannot be edited (409), but can be deleted", async () => {
    const m = await member();
    const admin = await createMember(t.db!);
    await makeAdmin(t.db!, admin.user.id);
    const deal = await createDeal(t.db!, m.profile.id, { status: "validated", validatedAt: new Date(), validatedBy: admin.user.id, year: year - 3 });
    await expect(updateOwnDeal(memberActor(m.profile), deal.id, reference({ acquirerCedant: "Modifiée" }))).rejects.toMatchObject({
      code: "conflict",
      message: DEAL_MESSAGES.validatedLocked,
    });
    expect(await dealRow(deal.id)).toMatchObject({ status: "validated", acquirerCedant: deal.acquirerCedant });
    await deleteOwnDeal(memberActor(m.profile), deal.id);
    expect(await dealRow(deal.id)).toBeUndefined();
  });

  it("another member's deal is a 404 for edit and delete, and stays untouched", async () => {
    const owner = await member();
    const intruder = await member();
    const { id } = await createOwnDeal(memberActor(owner.profile), reference());
    await expect(updateOwnDeal(memberActor(intruder.profile), id, reference({ acquirerCedant: "Piratée" }))).rejects.toMatchObject({ code: "not-found" });
    await expect(deleteOwnDeal(memberActor(intruder.profile), id)).rejects.toMatchObject({ code: "not-found" });
    expect(await dealRow(id)).toMatchObject({ acquirerCedant: reference().acquirerCedant, status: "pending" });
  });

  it("an id that is not a UUID is a 404, not a database error", async () => {
    const m = await member();
    await expect(updateOwnDeal(memberActor(m.profile), "1 or 1=1", reference())).rejects.toMatchObject({ code: "not-found" });
    await expect(deleteOwnDeal(memberActor(m.profile), "../x")).rejects.toMatchObject({ code: "not-found" });
  });

  it("the editor is premium-only (403 for freemium)", async () => {
    const m = await member("freemium");
    const deal = await createDeal(t.db!, m.profile.id, { status: "pending" });
    const actor = memberActor(m.profile);
    await expect(createOwnDeal(actor, reference())).rejects.toMatchObject({ code: "forbidden" });
    await expect(updateOwnDeal(actor, deal.id, reference())).rejects.toMatchObject({ code: "forbidden" });
    await expect(deleteOwnDeal(actor, deal.id)).rejects.toMatchObject({ code: "forbidden" });
  });

  it("only validated deals reach the public profile", async () => {
    const m = await member();
    await createOwnDeal(memberActor(m.profile), reference({ acquirerCedant: "En attente" }));
    const named = { disclosure: "named" as const, partiesConsentAt: new Date() };
    await createDeal(t.db!, m.profile.id, { status: "validated", acquirerCedant: "Validée", year: year - 1, ...named });
    await createDeal(t.db!, m.profile.id, { status: "rejected", acquirerCedant: "Refusée", year: year - 1, ...named });
    const publicProfile = await getPublicProfile(m.profile.id);
    expect(publicProfile?.certifiedDeals.map((d) => d.title)).toEqual(["Validée"]);
  });
});

describe("deals through the profile tab's action", () => {
  it("adds, edits and deletes with redirects and toasts", async () => {
    const m = await member();
    const added = await post(m, { intent: "deal-save", year: String(year), sector: "F", acquirerCedant: "Cession d'une entreprise de maçonnerie" });
    expect(statusOf(added)).toBe(302);
    expect((added as Response).headers.get("location")).toBe("/dashboard/profil#references");
    const [deal] = await listOwnDeals(memberActor(m.profile));
    expect(deal).toMatchObject({ status: "pending", sector: "F" });

    const edited = await post(m, { intent: "deal-save", dealId: deal.id, year: String(year - 1), sector: "F", acquirerCedant: "Cession d'une entreprise de plomberie" });
    expect(statusOf(edited)).toBe(302);
    expect(await dealRow(deal.id)).toMatchObject({ year: year - 1, acquirerCedant: "Cession d'une entreprise de plomberie", status: "pending" });

    const removed = await post(m, { intent: "deal-delete", dealId: deal.id });
    expect(statusOf(removed)).toBe(302);
    expect(await dealRow(deal.id)).toBeUndefined();
  });

  it("answers 400 with the required-fields message", async () => {
    const m = await member();
    const result = await post(m, { intent: "deal-save", year: String(year), sector: "", acquirerCedant: "" });
    expect(statusOf(result)).toBe(400);
    expect(JSON.stringify((result as { data: unknown }).data)).toContain(DEAL_MESSAGES.required);
  });

  it("answers 404 for another member's deal and 409 for a validated one, with an error toast", async () => {
    const m = await member();
    const other = await member();
    const foreign = await createDeal(t.db!, other.profile.id, { status: "pending" });
    const mine = await createDeal(t.db!, m.profile.id, { status: "validated", validatedAt: new Date() });
    const edit = (dealId: string) => post(m, { intent: "deal-save", dealId, year: String(year), sector: "C", acquirerCedant: "x" });
    const notMine = await edit(foreign.id);
    expect(statusOf(notMine)).toBe(404);
    expect(String((notMine as { init?: { headers?: Headers } }).init?.headers?.get("set-cookie"))).toContain("rt_toast=");
    expect(statusOf(await post(m, { intent: "deal-delete", dealId: foreign.id }))).toBe(404);
    expect(statusOf(await edit(mine.id))).toBe(409);
    expect(await dealRow(foreign.id)).toBeDefined();
  });

  it("answers 403 to a freemium member", async () => {
    const m = await member("freemium");
    const result = await post(m, { intent: "deal-save", year: String(year), sector: "C", acquirerCedant: "x" });
    expect(statusOf(result)).toBe(403);
    expect(await listOwnDeals(memberActor(m.profile))).toEqual([]);
  });
});
