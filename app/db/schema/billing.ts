// Invoices and credit notes. An invoice is a record kept ten years
// (Code de commerce L. 123-22): it holds a copy of the seller's and the buyer's identity at issue
// time and outlives the member's account (profile and payment references become null).
import { sql } from "drizzle-orm";
import { type AnyPgColumn, boolean, check, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { payments, profiles } from "./product";

const ts = (name: string) => timestamp(name, { withTimezone: true });

export const invoiceKindEnum = pgEnum("invoice_kind", ["invoice", "credit_note"]);

/** The last number given per series ("F" invoices, "A" credit notes) and year, taken under its row lock. */
export const invoiceCounters = pgTable(
  "invoice_counters",
  {
    series: text("series").notNull(),
    year: integer("year").notNull(),
    lastNumber: integer("last_number").notNull(),
  },
  (t) => [primaryKey({ columns: [t.series, t.year] })],
);

/** The seller as printed on the document (the LEGAL_* settings at issue time). */
export type InvoiceSeller = {
  companyName: string;
  legalForm: string;
  shareCapital: string;
  rcs: string;
  siret: string;
  vatNumber: string;
  headOffice: string;
  contactEmail: string;
};

export const invoices = pgTable(
  "invoices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: invoiceKindEnum("kind").notNull(),
    number: text("number").notNull(),
    /** The member who may download it while the account exists. */
    profileId: uuid("profile_id").references(() => profiles.id, { onDelete: "set null" }),
    paymentId: uuid("payment_id").references(() => payments.id, { onDelete: "set null" }),
    /** A credit note's invoice. */
    creditedInvoiceId: uuid("credited_invoice_id").references((): AnyPgColumn => invoices.id),
    seller: jsonb("seller").$type<InvoiceSeller>().notNull(),
    buyerName: text("buyer_name").notNull(),
    buyerCompany: text("buyer_company").notNull(),
    buyerAddress: text("buyer_address"),
    buyerEmail: text("buyer_email").notNull(),
    buyerSiren: text("buyer_siren"),
    designation: text("designation").notNull(),
    quantity: integer("quantity").notNull().default(1),
    /** Amounts in cents, positive on a credit note too (the document says what it cancels). */
    unitHtCents: integer("unit_ht_cents").notNull(),
    htCents: integer("ht_cents").notNull(),
    /** Basis points: 2000 = 20 %; 0 under the VAT franchise. */
    vatRateBp: integer("vat_rate_bp").notNull(),
    vatCents: integer("vat_cents").notNull(),
    ttcCents: integer("ttc_cents").notNull(),
    currency: text("currency").notNull().default("eur"),
    vatFranchise: boolean("vat_franchise").notNull().default(false),
    issuedAt: ts("issued_at").notNull().defaultNow(),
    /** Payment date (invoice) or refund date (credit note). */
    settledAt: ts("settled_at").notNull(),
    provider: text("provider").notNull(),
    /** The provider's receipt, when known (Stripe). */
    receiptUrl: text("receipt_url"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("invoices_number_key").on(t.number),
    // One invoice and at most one credit note per payment: issuing twice is a no-op.
    uniqueIndex("invoices_payment_kind_key").on(t.paymentId, t.kind),
    uniqueIndex("invoices_credited_key").on(t.creditedInvoiceId),
    index("invoices_profile_idx").on(t.profileId, t.issuedAt.desc()),
    check("invoices_amounts", sql`${t.htCents} + ${t.vatCents} = ${t.ttcCents} and ${t.ttcCents} >= 0`),
  ],
);

/** What the member gives for the invoices when the profile lacks it (address, SIREN). */
export const billingDetails = pgTable("billing_details", {
  profileId: uuid("profile_id")
    .primaryKey()
    .references(() => profiles.id, { onDelete: "cascade" }),
  company: text("company").notNull(),
  address: text("address").notNull(),
  siren: text("siren"),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});
