// Canary: a client name and address carrying unique markers must appear in no response and no
// e-mail to anyone but the mandate's owner, until the connection is confirmed (and, here, the
// counterparty has signed the confidentiality undertaking); then they appear for the
// counterparty, and still for no one else.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { mailOutbox } from "~/db/schema";
import { createMandate, mandateActor } from "~/features/mandates/mandates.server";
import { loader as dashboardMandatesLoader } from "~/routes/member/dashboard/mandates";
import { loader as statsLoader } from "~/routes/member/dashboard/stats";
import { action, loader } from "~/routes/member/mandates";
import { createMember, seedFactories, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { type Browser, mandateInput, runAction, runLoader, signIn } from "./mandates-helpers";

const t = useTestDatabase();

const NAME = `CANARY-NAME-${randomBytes(6).toString("hex")}`;
const ADDRESS = `CANARY-ADDR-${randomBytes(6).toString("hex")}`;

let owner: CreatedMember;
let partner: CreatedMember;
let stranger: CreatedMember;
let ownerB: Browser;
let partnerB: Browser;
let strangerB: Browser;
let secret: string; // the owner's mandate (seller)
let partnerMandate: string; // buyer
let strangerMandate: string; // buyer

beforeAll(async () => {
  seedFactories(91);
  const db = t.db!;
  owner = await createMember(db, { profile: { membershipType: "premium" } });
  partner = await createMember(db, { profile: { membershipType: "premium" } });
  stranger = await createMember(db, { profile: { membershipType: "freemium" } });
  const seller = {
    mandateType: "seller" as const,
    searchSectors: null,
    searchTerritories: null,
    targetAmountMin: null,
    targetAmountMax: null,
    companySector: "C",
    companyTerritory: "75",
    valuationAmount: 600_000,
    description: "Entreprise industrielle",
  };
  secret = (await createMandate(mandateActor(owner.profile), mandateInput({ ...seller, clientCode: "CAN-S", clientName: NAME, clientAddress: ADDRESS }))).id;
  partnerMandate = (await createMandate(mandateActor(partner.profile), mandateInput({ clientCode: "CAN-B1" }))).id;
  strangerMandate = (await createMandate(mandateActor(stranger.profile), mandateInput({ clientCode: "CAN-B2" }))).id;
  ownerB = await signIn(owner);
  partnerB = await signIn(partner);
  strangerB = await signIn(stranger);
});

/** Everything a member can load about mandates, serialised. */
async function everythingSeenBy(b: Browser, own: string): Promise<string> {
  const paths = [
    "/mandates",
    "/mandates?onglet=opportunites",
    `/mandates?matching=${own}`,
    `/mandates?matching=${own}&demande=${secret}`,
    `/mandates?onglet=opportunites&mandat=${own}&demande=${secret}`,
    `/mandates?details=${secret}`,
    `/mandates?modifier=${secret}`,
    `/mandates?matching=${secret}`,
  ];
  const seen: unknown[] = [];
  for (const path of paths) seen.push(await runLoader(loader, path, b));
  seen.push(await runLoader(statsLoader, "/dashboard/stats", b));
  seen.push(await runLoader(dashboardMandatesLoader, "/dashboard/mandats", b));
  return JSON.stringify(seen, (_k, v: unknown) => (v instanceof Error ? v.message : v));
}

async function mailsNotTo(email: string): Promise<string> {
  const rows = await t.db!.select().from(mailOutbox);
  return JSON.stringify(rows.filter((r) => r.toAddress !== email));
}

async function expectSecretHiddenFrom(b: Browser, own: string) {
  const seen = await everythingSeenBy(b, own);
  expect(seen).not.toContain(NAME);
  expect(seen).not.toContain(ADDRESS);
}

async function expectNoMailLeak() {
  const mails = await mailsNotTo(owner.email);
  expect(mails).not.toContain(NAME);
  expect(mails).not.toContain(ADDRESS);
}

describe("canary: the client's identity stays with its owner until the connection is confirmed", () => {
  it("the owner sees it (the probe works)", async () => {
    const seen = await everythingSeenBy(ownerB, secret);
    expect(seen).toContain(NAME);
    expect(seen).toContain(ADDRESS);
  });

  it("nobody else sees it while the connection is being made, then only the counterparty", async () => {
    await expectSecretHiddenFrom(partnerB, partnerMandate);
    await expectSecretHiddenFrom(strangerB, strangerMandate);

    // The partner and the stranger both ask for a connection.
    for (const [b, own] of [
      [partnerB, partnerMandate],
      [strangerB, strangerMandate],
    ] as const) {
      const out = await runAction(action, "/mandates", b, { intent: "request", mandateId: own, targetMandateId: secret, message: "Bonjour" });
      expect(out.thrown).toBeUndefined();
    }
    await expectSecretHiddenFrom(partnerB, partnerMandate);
    await expectNoMailLeak();

    // The owner accepts the partner's request and proposes back; the stranger's stays pending.
    const ownerPanel = (await runLoader(loader, `/mandates?matching=${secret}`, ownerB)).value!.panel!;
    const fromPartner = ownerPanel.relations.find((r) => r.counterpart.id === partnerMandate)!.received!;
    await runAction(action, "/mandates", ownerB, { intent: "accept", requestId: fromPartner.id });
    await expectSecretHiddenFrom(partnerB, partnerMandate);
    await runAction(action, "/mandates", ownerB, { intent: "propose", mandateId: secret, targetMandateId: partnerMandate });
    await expectSecretHiddenFrom(partnerB, partnerMandate);
    await expectSecretHiddenFrom(strangerB, strangerMandate);
    await expectNoMailLeak();

    // The partner accepts the proposal: the connection is confirmed (e-mails exchanged)…
    const partnerPanel = (await runLoader(loader, `/mandates?matching=${partnerMandate}`, partnerB)).value!.panel!;
    const proposal = partnerPanel.relations.find((r) => r.counterpart.id === secret)!.received!;
    await runAction(action, "/mandates", partnerB, { intent: "accept", requestId: proposal.id });
    const confirmed = (await runLoader(loader, `/mandates?matching=${partnerMandate}`, partnerB)).value!.panel!;
    expect(confirmed.relations.find((r) => r.counterpart.id === secret)?.confirmed).toBe(true);
    // …but the identity waits for the partner's confidentiality undertaking.
    await expectSecretHiddenFrom(partnerB, partnerMandate);
    await expectNoMailLeak();

    await runAction(action, "/mandates", partnerB, { intent: "sign-undertaking", requestId: proposal.id, accept: "on" });
    const after = await everythingSeenBy(partnerB, partnerMandate);
    expect(after).toContain(NAME);
    expect(after).toContain(ADDRESS);
    const revealed = (await runLoader(loader, `/mandates?matching=${partnerMandate}`, partnerB)).value!.panel!;
    expect(revealed.relations.find((r) => r.counterpart.id === secret)?.client).toEqual({ name: NAME, address: ADDRESS });

    // Still nothing for the stranger, nor in any e-mail.
    await expectSecretHiddenFrom(strangerB, strangerMandate);
    await expectNoMailLeak();
    expect((await t.db!.select().from(mailOutbox)).length).toBeGreaterThanOrEqual(4);
  });
});
