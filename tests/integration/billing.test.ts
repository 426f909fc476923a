// Invoices and credit notes (issue 27 §4, decision 045) on a real database: numbers without gaps
// (a rolled-back payment gives its number back, concurrent payments get consecutive ones), the
// credit note of a refund, invoices kept after the account's deletion, each member's own only.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { and, asc, eq } from "drizzle-orm";
import { PDFDocument, PDFRawStream } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "~/auth/session.server";
import { db } from "~/db/client.server";
import { invoices, payments, profiles } from "~/db/schema";
import { eraseAccount } from "~/features/account/account-deletion.server";
import { getBillingView, renderInvoicePdf, saveBillingDetails } from "~/features/billing/billing.server";
import { allocateInvoiceNumber, issueInvoiceForPayment } from "~/features/billing/invoices.server";
import { handlePaymentWebhook, startFoundingCheckout } from "~/features/membership/membership.server";
import { signLocalWebhook } from "~/features/membership/payment-provider.server";
import { getEnv, parseEnv, setEnv } from "~/lib/env.server";
import { loader as invoicePdfLoader } from "~/routes/member/invoice-pdf";
import { createMember, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { LEGAL_ENV } from "../support/legal-env";
import { expectedStatus } from "~/lib/errors/http";

useTestDatabase();

const original = getEnv();
const baseEnv = { ...process.env, ...LEGAL_ENV, BETTER_AUTH_SECRET: "s".repeat(48), STRIPE_SECRET_KEY: "", STRIPE_WEBHOOK_SECRET: "", APP_URL: "http://localhost:3000" };
beforeAll(() => setEnv(parseEnv(baseEnv)));
afterAll(() => setEnv(original));

const YEAR = new Date().getFullYear();
const sessionUser = (m: CreatedMember): SessionUser => ({ id: m.user.id, email: m.email, emailVerified: true, twoFactorEnabled: false });

function payingApplicant() {
  return createMember(db, {
    profile: { profileStatus: "pending_validation", onboardingStatus: "recommendations_pending", membershipType: "freemium", validatedAt: null },
  });
}

let counter = 0;
function signed(type: string, object: Record<string, unknown>) {
  counter += 1;
  const payload = JSON.stringify({ id: `evt_billing_${Date.now()}_${counter}`, object: "event", type, created: Math.floor(Date.now() / 1000), data: { object } });
  return { payload, signature: signLocalWebhook(payload) };
}

/** Starts the member's checkout and pays it through the signed webhook; returns the payment. */
async function pay(m: CreatedMember, intent = `pi_${m.profile.id.slice(0, 8)}`) {
  await startFoundingCheckout(sessionUser(m));
  const [p] = await db.select().from(payments).where(and(eq(payments.profileId, m.profile.id), eq(payments.status, "pending")));
  const { payload, signature } = signed("checkout.session.completed", {
    id: p!.checkoutSessionId,
    object: "checkout.session",
    payment_status: "paid",
    client_reference_id: p!.id,
    amount_total: p!.amountCents,
    currency: "eur",
    payment_intent: intent,
    metadata: { paymentId: p!.id, profileId: m.profile.id },
  });
  expect(await handlePaymentWebhook(payload, signature)).toEqual({ status: 200 });
  return { ...p!, payload, signature, intent };
}

async function invoicesOf(profileId: string) {
  return db.select().from(invoices).where(eq(invoices.profileId, profileId)).orderBy(asc(invoices.number));
}

const seqOf = (number: string) => Number(number.split("-")[2]);

async function statusOf(promise: Promise<unknown>): Promise<number | undefined> {
  const thrown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return expectedStatus(thrown) ?? undefined;
}

/** The PDF's text: pdftotext when installed, else the content streams' strings read with pdf-lib. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  try {
    const dir = mkdtempSync(join(tmpdir(), "invoice-"));
    const file = join(dir, "f.pdf");
    writeFileSync(file, bytes);
    return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
  } catch {
    const doc = await PDFDocument.load(bytes);
    let out = "";
    for (const [, obj] of doc.context.enumerateIndirectObjects()) {
      if (!(obj instanceof PDFRawStream)) continue;
      const raw = Buffer.from(inflateSync(obj.contents)).toString("latin1");
      for (const m of raw.matchAll(/<([0-9A-Fa-f]+)> Tj/g)) out += `${Buffer.from(m[1]!, "hex").toString("latin1")}\n`;
    }
    return out;
  }
}

describe("invoices of payments", () => {
  it("a paid checkout issues one invoice with the buyer's and the seller's identity; a replay issues none", async () => {
    const m = await payingApplicant();
    const p = await pay(m);
    expect(await handlePaymentWebhook(p.payload, p.signature)).toEqual({ status: 200 });
    const rows = await invoicesOf(m.profile.id);
    expect(rows).toHaveLength(1);
    const inv = rows[0]!;
    expect(inv.number).toMatch(new RegExp(`^F-${YEAR}-\\d{6}$`));
    expect(inv).toMatchObject({
      kind: "invoice",
      paymentId: p.id,
      buyerName: `${m.profile.firstName} ${m.profile.lastName}`,
      buyerCompany: m.profile.company,
      buyerAddress: m.profile.fullAddress,
      buyerEmail: m.email,
      designation: "Adhésion membre fondateur — 1 an",
      unitHtCents: 20_833,
      htCents: 20_833,
      vatRateBp: 2000,
      vatCents: 4_167,
      ttcCents: 25_000,
      vatFranchise: false,
    });
    expect(inv.seller).toMatchObject({ companyName: "Réseau Transmission SAS", siret: "912 345 678 00012", vatNumber: "FR12912345678" });
    const [payment] = await db.select().from(payments).where(eq(payments.id, p.id));
    expect(payment!.paymentIntentId).toBe(p.intent);
  });

  it("a rolled-back payment gives its number back: the next invoice takes it", async () => {
    const a = await payingApplicant();
    await startFoundingCheckout(sessionUser(a));
    const [pa] = await db.select().from(payments).where(eq(payments.profileId, a.profile.id));
    await db.update(payments).set({ status: "paid", paidAt: new Date() }).where(eq(payments.id, pa!.id));
    let taken = "";
    await expect(
      db.transaction(async (tx) => {
        taken = (await issueInvoiceForPayment(tx, pa!.id))!.number;
        throw new Error("the payment's transaction fails after the invoice");
      }),
    ).rejects.toThrow(/fails after/);
    expect(taken).toMatch(/^F-/);
    expect(await invoicesOf(a.profile.id)).toHaveLength(0);
    // The next payment gets the number the rolled-back one had taken.
    const b = await payingApplicant();
    await pay(b);
    const [inv] = await invoicesOf(b.profile.id);
    expect(inv!.number).toBe(taken);
  });

  it("concurrent payments get consecutive numbers, none twice, none skipped", async () => {
    const members = await Promise.all([payingApplicant(), payingApplicant(), payingApplicant(), payingApplicant()]);
    const pending = [];
    for (const m of members) {
      await startFoundingCheckout(sessionUser(m));
      const [p] = await db.select().from(payments).where(eq(payments.profileId, m.profile.id));
      pending.push(
        signed("checkout.session.completed", {
          id: p!.checkoutSessionId,
          payment_status: "paid",
          client_reference_id: p!.id,
          amount_total: 25_000,
          currency: "eur",
          metadata: { paymentId: p!.id },
        }),
      );
    }
    const before = await db.select({ number: invoices.number }).from(invoices).where(eq(invoices.kind, "invoice"));
    const last = Math.max(0, ...before.map((r) => seqOf(r.number)));
    const results = await Promise.all(pending.map((e) => handlePaymentWebhook(e.payload, e.signature)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const numbers = (await Promise.all(members.map((m) => invoicesOf(m.profile.id)))).map((rows) => {
      expect(rows).toHaveLength(1);
      return seqOf(rows[0]!.number);
    });
    expect(numbers.sort((x, y) => x - y)).toEqual([last + 1, last + 2, last + 3, last + 4]);
  });

  it("the counter itself: two transactions racing for a number get two consecutive ones", async () => {
    const at = new Date(Date.UTC(2031, 5, 1));
    const [x, y] = await Promise.all([
      db.transaction((tx) => allocateInvoiceNumber(tx, "invoice", at)),
      db.transaction((tx) => allocateInvoiceNumber(tx, "invoice", at)),
    ]);
    expect([x, y].sort()).toEqual(["F-2031-000001", "F-2031-000002"]);
  });

  it("a refund issues a credit note referencing the invoice, with its own numbering, once", async () => {
    const m = await payingApplicant();
    const p = await pay(m);
    const charge = {
      id: `ch_${p.id.slice(0, 8)}`,
      object: "charge",
      payment_intent: p.intent,
      amount: 25_000,
      amount_refunded: 25_000,
      refunded: true,
      receipt_url: "https://pay.stripe.com/receipts/payment/abc",
    };
    const refund = signed("charge.refunded", charge);
    expect(await handlePaymentWebhook(refund.payload, refund.signature)).toEqual({ status: 200 });
    expect(await handlePaymentWebhook(refund.payload, refund.signature)).toEqual({ status: 200 });
    const again = signed("charge.refunded", charge);
    expect(await handlePaymentWebhook(again.payload, again.signature)).toEqual({ status: 200 });
    const rows = await invoicesOf(m.profile.id);
    expect(rows.map((r) => r.kind).sort()).toEqual(["credit_note", "invoice"]);
    const invoice = rows.find((r) => r.kind === "invoice")!;
    const note = rows.find((r) => r.kind === "credit_note")!;
    expect(note.number).toMatch(new RegExp(`^A-${YEAR}-\\d{6}$`));
    expect(note).toMatchObject({ creditedInvoiceId: invoice.id, ttcCents: 25_000, htCents: 20_833, vatCents: 4_167, buyerCompany: invoice.buyerCompany });
    const [payment] = await db.select().from(payments).where(eq(payments.id, p.id));
    expect(payment).toMatchObject({ status: "refunded", receiptUrl: charge.receipt_url });
    const text = await pdfText((await renderInvoicePdf({ profileId: m.profile.id }, note.id)).bytes);
    expect(text).toContain(`Avoir n° ${note.number}`);
    expect(text).toContain(`facture n° ${invoice.number}`);
    const view = await getBillingView({ profileId: m.profile.id });
    expect(view.payments[0]).toMatchObject({ status: "refunded", receiptUrl: charge.receipt_url });
    expect(view.payments[0]!.documents.map((d) => d.number)).toEqual([invoice.number, note.number]);
  });

  it("a partial refund issues no credit note", async () => {
    const m = await payingApplicant();
    const p = await pay(m);
    const e = signed("charge.refunded", { id: "ch_partial", payment_intent: p.intent, amount: 25_000, amount_refunded: 5_000, refunded: false });
    expect(await handlePaymentWebhook(e.payload, e.signature)).toEqual({ status: 200 });
    expect((await invoicesOf(m.profile.id)).map((r) => r.kind)).toEqual(["invoice"]);
  });
});

describe("the member's invoices", () => {
  it("the PDF carries the mandatory mentions; another member's invoice and a bad id are 404", async () => {
    const m = await payingApplicant();
    const other = await payingApplicant();
    await pay(m);
    const [inv] = await invoicesOf(m.profile.id);
    const pdf = await renderInvoicePdf({ profileId: m.profile.id }, inv!.id);
    expect(pdf.fileName).toBe(`facture-${inv!.number}.pdf`);
    const text = (await pdfText(pdf.bytes)).replace(/[\u00a0\u202f]/g, " ");
    for (const mention of [
      `Facture n° ${inv!.number}`,
      "Réseau Transmission SAS, SAS au capital de 10 000 €",
      "SIREN 912345678",
      "FR12912345678",
      m.profile.company,
      "Prix unitaire HT : 208,33 €",
      "Taux de TVA : 20 %",
      "Montant de la TVA (20 %) : 41,67 €",
      "Total TTC : 250,00 €",
      "Date de paiement",
      "40 €",
    ]) {
      expect(text).toContain(mention);
    }
    expect(text).not.toContain("293 B");
    expect(await statusOf(renderInvoicePdf({ profileId: other.profile.id }, inv!.id))).toBe(404);
    expect(await statusOf(renderInvoicePdf({ profileId: m.profile.id }, "not-a-uuid"))).toBe(404);
    expect(await statusOf(renderInvoicePdf({ profileId: m.profile.id }, "00000000-0000-4000-8000-000000000000"))).toBe(404);
  });

  it("the download route answers private, no-store", async () => {
    const m = await payingApplicant();
    await pay(m);
    const [inv] = await invoicesOf(m.profile.id);
    const { getAuth } = await import("~/auth/auth.server");
    const signIn = await getAuth().api.signInEmail({ body: { email: m.email, password: m.password }, returnHeaders: true });
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0]!;
    const request = new Request(`http://localhost/parametres/facturation/${inv!.id}`, { headers: { cookie } });
    const response = (await invoicePdfLoader({ request, params: { invoiceId: inv!.id }, context: {} } as never)) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });

  it("under the VAT franchise the invoice carries no VAT and says so", async () => {
    setEnv(parseEnv({ ...baseEnv, LEGAL_VAT_FRANCHISE: "true" }));
    try {
      const m = await payingApplicant();
      await pay(m);
      const [inv] = await invoicesOf(m.profile.id);
      expect(inv).toMatchObject({ htCents: 25_000, vatCents: 0, ttcCents: 25_000, vatRateBp: 0, vatFranchise: true });
      const text = await pdfText((await renderInvoicePdf({ profileId: m.profile.id }, inv!.id)).bytes);
      expect(text).toContain("TVA non applicable, art. 293 B du CGI");
    } finally {
      setEnv(parseEnv(baseEnv));
    }
  });

  it("billing details: a missing address is completed on issued invoices and used for the next ones", async () => {
    const m = await payingApplicant();
    await db.update(profiles).set({ fullAddress: null }).where(eq(profiles.id, m.profile.id));
    await pay(m);
    expect((await getBillingView({ profileId: m.profile.id })).addressMissing).toBe(true);
    expect((await invoicesOf(m.profile.id))[0]!.buyerAddress).toBeNull();
    await saveBillingDetails({ profileId: m.profile.id }, { company: "Cabinet Durand SARL", address: "5 rue Nationale, 59000 Lille", siren: "123456789" });
    const [inv] = await invoicesOf(m.profile.id);
    // The address was missing: completed. The company of an issued invoice stays as issued.
    expect(inv).toMatchObject({ buyerAddress: "5 rue Nationale, 59000 Lille", buyerCompany: m.profile.company });
    const view = await getBillingView({ profileId: m.profile.id });
    expect(view).toMatchObject({ addressMissing: false, details: { company: "Cabinet Durand SARL", siren: "123456789", saved: true } });
  });
});

describe("account deletion", () => {
  it("keeps the invoices and credit notes, with the buyer's identity, out of every member's reach", async () => {
    const m = await payingApplicant();
    const p = await pay(m);
    const refund = signed("charge.refunded", { id: "ch_deleted", payment_intent: p.intent, amount: 25_000, amount_refunded: 25_000, refunded: true });
    await handlePaymentWebhook(refund.payload, refund.signature);
    const before = await invoicesOf(m.profile.id);
    expect(before).toHaveLength(2);
    await eraseAccount({ id: m.user.id, email: m.email });
    const after = await db
      .select()
      .from(invoices)
      .where(eq(invoices.id, before[0]!.id));
    const all = await Promise.all(before.map(async (b) => (await db.select().from(invoices).where(eq(invoices.id, b.id)))[0]));
    expect(after).toHaveLength(1);
    for (const [i, row] of all.entries()) {
      expect(row).toMatchObject({ number: before[i]!.number, profileId: null, paymentId: null, buyerName: before[i]!.buyerName, buyerEmail: m.email, ttcCents: 25_000 });
    }
    expect(await db.select().from(payments).where(eq(payments.id, p.id))).toHaveLength(0);
  });
});
