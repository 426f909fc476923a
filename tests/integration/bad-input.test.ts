// Security suite, "Bad input" (issue 8): property-based tests (fast-check) of every form schema
// and of the main route actions with random and hostile values. Schemas never throw and only
// speak French; actions never fail with a 500 (a thrown non-Response error) and store nothing
// when the input is refused.
import { parseWithZod } from "@conform-to/zod/v4";
import { count, eq } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import * as authSchemas from "~/auth/auth.schema";
import * as twoFactorSchemas from "~/auth/two-factor.schema";
import { certifiedDeals, contactMessages, dueDiligenceRequests, mailOutbox, mandates, messages, profiles, recommendations, verificationEvidence } from "~/db/schema";
import * as accountSchemas from "~/features/account/account.schema";
import * as billingSchemas from "~/features/billing/billing.schema";
import * as agreementSchemas from "~/features/collaboration/agreement.schema";
import * as ratingsSchemas from "~/features/trust/ratings.schema";
import * as collaborationSchemas from "~/features/collaboration/collaboration.schema";
import * as participantSchemas from "~/features/collaboration/participants.schema";
import { openCollaborationFile } from "~/features/collaboration/file-opening.server";
import * as adminSchemas from "~/features/admin/admin.schema";
import * as mediationSchemas from "~/features/mediation/mediation.schema";
import * as connectionSchemas from "~/features/connections/connections.schema";
import * as contactSchemas from "~/features/contact/contact.schema";
import * as dealSchemas from "~/features/deals/deal.schema";
import * as dueDiligenceSchemas from "~/features/due-diligence/due-diligence.schema";
import * as directorySchemas from "~/features/directory/directory.schema";
import * as mandateSchemas from "~/features/mandates/mandates.schema";
import * as messageSchemas from "~/features/messages/messages.schema";
import * as notificationSchemas from "~/features/notifications/notifications.schema";
import * as onboardingSchemas from "~/features/onboarding/onboarding.schema";
import * as verificationSchemas from "~/features/trust/verification.schema";
import * as profileSchemas from "~/features/profiles/profile.schema";
import { getEnv, setEnv } from "~/lib/env.server";
import { profileSlug } from "~/lib/slug";
import { action as mandatesAction } from "~/routes/member/mandates";
import { action as onboardingAction } from "~/routes/member/onboarding";
import { action as profileAction } from "~/routes/member/dashboard/profile";
import { action as agreementAction } from "~/routes/member/dashboard/file/agreement";
import { action as fileOverviewAction } from "~/routes/member/dashboard/file/overview";
import { action as conversationAction } from "~/routes/member/dashboard/conversation";
import { action as evaluationAction } from "~/routes/member/dashboard/file/evaluation";
import { action as dueDiligenceAction } from "~/routes/member/dashboard/file/due-diligence";
import { action as dueDiligenceItemAction } from "~/routes/member/dashboard/file/due-diligence-item";
import { action as mediationAction } from "~/routes/member/dashboard/file/mediation";
import { action as participantsAction } from "~/routes/member/dashboard/file/participants";
import { action as sharedFileAction } from "~/routes/shared/file";
import { action as sharedFilesAction } from "~/routes/shared/files";
import { action as sharedDdItemAction } from "~/routes/shared/due-diligence-item";
import { collaborationDocuments, collaborationFolders, collaborationParticipants, dueDiligenceQuestions } from "~/db/schema";
import { shareParticipantDocument } from "~/features/collaboration/participant-documents.server";
import { DOCUMENT_MESSAGES } from "~/features/collaboration/documents-rules";
import { PDFDocument } from "pdf-lib";
import { useFileTestEnvironment } from "./file-helpers";
import { action as invitationAction } from "~/routes/public/invitation";
import { action as adminMediationAction } from "~/routes/admin/mediation";
import { action as insuranceRenewalAction } from "~/routes/member/insurance-renewal";
import { mediations, user as userTable } from "~/db/schema";
import { eq as eqColumn } from "drizzle-orm";
import { action as settingsAction } from "~/routes/member/settings";
import { action as billingAction } from "~/routes/member/billing";
import { action as notificationsAction } from "~/routes/member/dashboard/notifications";
import { action as contactAction } from "~/routes/public/contact";
import { action as consultantAction } from "~/routes/public/consultant";
import { type Browser, signIn } from "./mandates-helpers";
import { buildVerificationEvidence, createMandate, createMember, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";

const t = useTestDatabase();
const RUNS = 40;

// ---------------------------------------------------------------------------------------------
// Hostile values
// ---------------------------------------------------------------------------------------------

const HOSTILE_CONSTANTS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u0007\u001b[31m\u007f",
  "\r\n\r\n",
  "\t",
  "\uD800",
  "\uFEFF",
  "\u202Egnp.exe",
  "<script>alert(1)</script>",
  "</script><script>alert(1)</script>",
  "<!--",
  '<img src=x onerror="alert(1)">',
  "javascript:alert(1)",
  "'; DROP TABLE profiles; --",
  "%00",
  "../../etc/passwd",
  "NaN",
  "Infinity",
  "-Infinity",
  "-0",
  "1e308",
  "-1e309",
  "9".repeat(400),
  "99999999999999999999999",
  "-99999999999999999999",
  "0x1F",
  "1,5",
  "0000-00-00",
  "9999-12-31",
  "275760-09-14",
  "-271821-04-19",
  "2026-02-30",
  "1900-01-01",
  "2026-13-01",
  "on",
  "true",
  "null",
  "undefined",
  "[]",
  "{}",
  "__proto__",
  "constructor",
];

const longString = fc.integer({ min: 1_000, max: 60_000 }).chain((n) => fc.string({ minLength: 1, maxLength: 3 }).map((s) => s.repeat(n).slice(0, n)));

/** One hostile form value. */
const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_CONSTANTS),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
  longString,
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.double().map(String),
  fc.date({ noInvalidDate: false }).map((d) => (Number.isNaN(d.getTime()) ? "Invalid Date" : d.toISOString())),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
);

/** A raw (non-form) value of any type: wrong types, arrays where strings are expected... */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(hostileString, fc.anything({ maxDepth: 2 }), fc.array(hostileString, { maxLength: 4 }));

// ---------------------------------------------------------------------------------------------
// The schemas
// ---------------------------------------------------------------------------------------------

const modules: Record<string, Record<string, unknown>> = {
  auth: authSchemas,
  twoFactor: twoFactorSchemas,
  account: accountSchemas,
  admin: adminSchemas,
  mediation: mediationSchemas,
  agreement: agreementSchemas,
  ratings: ratingsSchemas,
  collaboration: collaborationSchemas,
  participants: participantSchemas,
  connections: connectionSchemas,
  contact: contactSchemas,
  deal: dealSchemas,
  dueDiligence: dueDiligenceSchemas,
  directory: directorySchemas,
  mandates: mandateSchemas,
  messages: messageSchemas,
  notifications: notificationSchemas,
  billing: billingSchemas,
  onboarding: onboardingSchemas,
  profile: profileSchemas,
};

const schemas: [string, z.ZodType][] = [
  ...Object.entries(modules).flatMap(([name, mod]) =>
    Object.entries(mod)
      .filter((entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType)
      .map(([key, schema]): [string, z.ZodType] => [`${name}.${key}`, schema]),
  ),
  ["deal.dealSchema()", dealSchemas.dealSchema()],
  ["onboarding.sponsorsSchema()", onboardingSchemas.sponsorsSchema("moi@exemple.fr")],
  ["collaboration.closingSchema()", collaborationSchemas.closingSchema("2026-11-24")],
  ["trust.verificationSchema(avocat)", verificationSchemas.verificationSchema("avocat_affaires", "2026-11-25")],
  ["trust.verificationSchema(intermédiaire)", verificationSchemas.verificationSchema("conseil_immobilier_commercial", "2026-11-25")],
  ["trust.insuranceFieldsSchema()", verificationSchemas.insuranceFieldsSchema("2026-11-25")],
];

/** Field names a schema reads (objects, unions, pipes), to aim the random forms at them. */
function fieldsOf(schema: z.ZodType): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodUnion || schema instanceof z.ZodDiscriminatedUnion) {
    return [...new Set((schema.options as z.ZodType[]).flatMap(fieldsOf))];
  }
  if (schema instanceof z.ZodPipe) return fieldsOf(schema.in as z.ZodType);
  return [];
}

// Messages a user can see must be French: any default (English) zod message is a leak.
// English words of zod's default messages ("option" is French too, so it is not listed).
const ENGLISH = /\b(invalid|expected|required|received|too (big|small)|must|unrecognized|string|number)\b/i;

// Structural errors that no form of the app produces (a hidden intent altered, a field sent
// twice or as a file…) get zod's French locale (app/lib/zod-locale.ts): no English tolerated.
function expectFrench(messages: string[], where: string) {
  for (const message of messages) {
    expect(typeof message, where).toBe("string");
    expect(message.trim().length, `${where}: empty message`).toBeGreaterThan(0);
    expect(message, `${where}: non-French message`).not.toMatch(ENGLISH);
  }
}

/** A FormData from entries: repeated names become arrays, some values are files. */
function formOf(entries: [string, string | { file: string }][]): FormData {
  const fd = new FormData();
  for (const [name, value] of entries) {
    if (typeof value === "string") fd.append(name, value);
    else fd.append(name, new File([value.file], "x.txt", { type: "text/plain" }));
  }
  return fd;
}

const formEntries = (fields: string[]) =>
  fc.array(
    fc.tuple(
      fields.length > 0 ? fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...fields) }, { weight: 1, arbitrary: fc.string({ maxLength: 10 }) }) : fc.string({ maxLength: 10 }),
      fc.oneof({ weight: 9, arbitrary: hostileString }, { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((file) => ({ file })) }),
    ),
    { maxLength: 25 },
  );

describe("form schemas with hostile values", () => {
  it("finds the schemas of every feature", () => {
    expect(schemas.length).toBeGreaterThanOrEqual(25);
  });

  it.each(schemas)("%s: safeParse of any value never throws", (name, schema) => {
    fc.assert(
      fc.property(fc.oneof(anyValue, fc.dictionary(fc.constantFrom(...fieldsOf(schema), "x"), anyValue, { maxKeys: 12 })), (value) => {
        const result = schema.safeParse(value);
        if (!result.success) expect(result.error.issues.length, name).toBeGreaterThan(0);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  it.each(schemas)("%s: submitted forms are refused in French only", (name, schema) => {
    const fields = fieldsOf(schema);
    fc.assert(
      fc.property(formEntries(fields), (entries) => {
        const submission = parseWithZod(formOf(entries), { schema });
        if (submission.status === "error") {
          const errors = Object.values(submission.error ?? {}).flatMap((m) => m ?? []);
          expect(errors.length, name).toBeGreaterThan(0);
          expectFrench(errors, name);
        }
      }),
      { numRuns: RUNS },
    );
    // Pure CPU work that the run's lower-priority lane may have to wait for on a loaded machine.
  }, 120_000);
});

describe("LinkedIn link (the only member-entered URL rendered as a link)", () => {
  const DANGEROUS = [
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "\u0001javascript:alert(1)",
    "java\tscript:alert(1)",
    "javascript://www.linkedin.com/%0Aalert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
    "//www.linkedin.com/in/x",
    "www.linkedin.com/in/x",
  ];

  it("refuses every non-http(s) URL, in French", () => {
    for (const value of DANGEROUS) {
      const result = onboardingSchemas.linkedinSchema.safeParse(value);
      expect(result.success, value).toBe(false);
      if (!result.success) expectFrench(result.error.issues.map((i) => i.message), value);
    }
  });

  it("only ever accepts values a browser resolves to http(s)", () => {
    fc.assert(
      fc.property(fc.oneof(hostileString, fc.webUrl(), fc.constantFrom(...DANGEROUS), fc.string().map((s) => `javascript:${s}`)), (value) => {
        const result = onboardingSchemas.linkedinSchema.safeParse(value);
        if (result.success && result.data !== undefined) {
          // The WHATWG parser is the browser's: what it says the protocol is, the link does.
          expect(new URL(result.data).protocol, value).toMatch(/^https?:$/);
        }
      }),
      { numRuns: 200 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Route actions
// ---------------------------------------------------------------------------------------------

type AnyAction = (args: never) => Promise<unknown>;
type Outcome = { status: number; body: unknown };

function isDataWithInit(value: unknown): value is { type: "DataWithResponseInit"; data: unknown; init: ResponseInit | null } {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";
}

function outcomeOf(value: unknown): Outcome {
  if (value instanceof Response) return { status: value.status, body: null };
  if (isDataWithInit(value)) return { status: value.init?.status ?? 200, body: value.data };
  return { status: 200, body: value };
}

/** Runs an action the way React Router does; a thrown non-Response error would be a 500. */
async function run(actionFn: AnyAction, url: string, fd: FormData, headers: Headers, params: Record<string, string> = {}): Promise<Outcome> {
  const request = new Request(url, { method: "POST", body: fd, headers });
  const args = { request, params, context: { nonce: "", requestId: "t" } } as unknown as never;
  try {
    return outcomeOf(await actionFn(args));
  } catch (error) {
    if (error instanceof Response || isDataWithInit(error)) return outcomeOf(error);
    throw error;
  }
}

let ipCounter = 0;
/** A fresh client address per request, so that per-IP rate limits do not hide the behaviour. */
function anonymous(): Headers {
  ipCounter += 1;
  return new Headers({ "x-rt-client-ip": `198.51.${(ipCounter >> 8) & 255}.${ipCounter & 255}` });
}

async function rowCount(table: typeof contactMessages | typeof messages | typeof mandates | typeof certifiedDeals): Promise<number> {
  const [row] = await t.db!.select({ n: count() }).from(table);
  return row.n;
}

/** Some French text in every message of an error result, when the action returned one. */
function expectFrenchBody(body: unknown, where: string) {
  if (typeof body !== "object" || body === null) return;
  const b = body as { error?: unknown; result?: { error?: Record<string, string[] | null> | null } };
  if (typeof b.error === "string") expectFrench([b.error], where);
  const errors = Object.values(b.result?.error ?? {}).flatMap((m) => m ?? []);
  expectFrench(errors, where);
}

describe("route actions with hostile forms", () => {
  let premium: CreatedMember;
  let freemium: CreatedMember;
  let applicant: CreatedMember;
  let premiumBrowser: Browser;
  let freemiumBrowser: Browser;
  let applicantBrowser: Browser;
  let slug: string;
  let fileId: string;
  let requestId: string;

  beforeAll(async () => {
    setEnv({ ...getEnv(), BETTER_AUTH_SECRET: "test-secret-for-bad-input-tests-0123456789abcdef" });
    const validated = { profileStatus: "validated" as const, onboardingStatus: "validated" as const, specializationSectors: ["C"] };
    premium = await createMember(t.db!, { profile: { ...validated, membershipType: "premium", detailedPresentation: "Avant", internalPresentation: "Avant" } });
    freemium = await createMember(t.db!, { profile: { ...validated, membershipType: "freemium" } });
    applicant = await createMember(t.db!, { profile: { profileStatus: "pending_validation", onboardingStatus: "charter_signed" } });
    premiumBrowser = await signIn(premium);
    freemiumBrowser = await signIn(freemium);
    applicantBrowser = await signIn(applicant);
    slug = profileSlug(premium.profile);
    // A collaboration file of the premium member (the agreement's forms).
    const mine = await createMandate(t.db!, premium.profile.id, { mandateType: "buyer" });
    const theirs = await createMandate(t.db!, freemium.profile.id, { mandateType: "seller" });
    fileId = await t.db!.transaction((tx) => openCollaborationFile(tx, mine.id, theirs.id));
    const [request] = await t.db!.insert(dueDiligenceRequests).values({ fileId, category: "juridique", title: "Statuts", position: 1 }).returning({ id: dueDiligenceRequests.id });
    requestId = request!.id;
  });

  const withCookie = (b: Browser) => {
    const headers = anonymous();
    headers.set("cookie", b.headers.get("cookie") ?? "");
    return headers;
  };

  type Target = { name: string; action: AnyAction; url: string; fields: string[]; intents: string[]; headers: () => Headers; params?: () => Record<string, string> };
  const field = (schema: z.ZodType) => fieldsOf(schema);
  const targets: Target[] = [
    { name: "contact page", action: contactAction, url: "http://localhost/contact", fields: field(contactSchemas.contactPageSchema), intents: [], headers: anonymous },
    {
      name: "public profile contact dialog",
      action: consultantAction,
      url: "http://localhost/consultant/x",
      fields: [...field(messageSchemas.publicContactSchema), "website"],
      intents: [],
      headers: anonymous,
      params: () => ({ slug }),
    },
    {
      // A member reports a rating shown on the profile (issue 14 §3).
      name: "rating report on a profile (member)",
      action: consultantAction,
      url: "http://localhost/consultant/x",
      fields: field(ratingsSchemas.reportSchema),
      intents: ["report"],
      headers: () => withCookie(freemiumBrowser),
      params: () => ({ slug }),
    },
    {
      // A file's participants and folders (issue 32), by one of its founders.
      name: "file participants (founder)",
      action: participantsAction,
      url: "http://localhost/dashboard/dossiers/x/intervenants",
      fields: [...field(participantSchemas.inviteSchema), ...field(participantSchemas.rightsSchema), ...field(participantSchemas.folderSchema)],
      intents: ["invite", "withdraw", "approve", "remove", "rights", "folder"],
      headers: () => withCookie(premiumBrowser),
      params: () => ({ fileId }),
    },
    {
      name: "shared file (founder)",
      action: sharedFileAction,
      url: "http://localhost/dossiers-partages/x",
      fields: ["folderId"],
      intents: ["undertaking"],
      headers: () => withCookie(premiumBrowser),
      params: () => ({ fileId }),
    },
    {
      // A guest's news on its home page: read one, open one, read all (decision 068).
      name: "shared files home: news read",
      action: sharedFilesAction,
      url: "http://localhost/dossiers-partages",
      fields: ["id"],
      intents: ["open", "read", "read-all"],
      headers: () => withCookie(premiumBrowser),
      params: () => ({}),
    },
    {
      name: "invitation (anonymous)",
      action: invitationAction,
      url: "http://localhost/invitation/x",
      fields: field(participantSchemas.guestSignUpSchema),
      intents: ["sign-up", "accept"],
      headers: anonymous,
      params: () => ({ token: "inconnu-0123456789abcdefghijkl" }),
    },
    {
      name: "mandates (premium)",
      action: mandatesAction,
      url: "http://localhost/mandates",
      fields: [...field(mandateSchemas.mandateFormSchema), "mandateId", "requestId", "returnTo"],
      intents: ["create", "update", "delete", "toggle-status", "request", "accept", "reject", "propose", "sign-undertaking"],
      headers: () => withCookie(premiumBrowser),
    },
    {
      name: "profile tab (premium)",
      action: profileAction,
      url: "http://localhost/dashboard/profil",
      fields: [...field(profileSchemas.profileEditorSchema), ...field(dealSchemas.dealSchema()), "kind"],
      intents: ["profile", "deal-save", "deal-delete", "image-remove"],
      headers: () => withCookie(premiumBrowser),
    },
    {
      name: "profile tab (freemium)",
      action: profileAction,
      url: "http://localhost/dashboard/profil",
      fields: [...field(profileSchemas.profileEditorSchema), ...field(dealSchemas.dealSchema())],
      intents: ["profile", "deal-save"],
      headers: () => withCookie(freemiumBrowser),
    },
    {
      name: "settings",
      action: settingsAction,
      url: "http://localhost/parametres",
      fields: [...field(accountSchemas.changePasswordSchema), ...field(accountSchemas.notificationPreferencesSchema), "sessionId", "code", "password", "confirmation"],
      // "regenerate-backup-codes" and "disable-2fa": see the known 500 below.
      intents: ["change-password", "notifications", "revoke-session", "verify-2fa", "enable-2fa", "cancel-2fa"],
      headers: () => withCookie(freemiumBrowser),
    },
    {
      name: "billing details",
      action: billingAction,
      url: "http://localhost/parametres/facturation",
      fields: field(billingSchemas.billingDetailsSchema),
      intents: [billingSchemas.BILLING_INTENT],
      headers: () => withCookie(freemiumBrowser),
    },
    {
      name: "notifications (member)",
      action: notificationsAction,
      url: "http://localhost/dashboard/notifications",
      fields: ["id"],
      intents: ["open", "read", "read-all"],
      headers: () => withCookie(premiumBrowser),
    },
    {
      // « Messages » (issue 31 §3): a file's thread, answered and marked read from the view.
      name: "conversation of a file (member)",
      action: conversationAction,
      url: "http://localhost/dashboard/messages/x",
      fields: [...field(messageSchemas.replySchema), "upTo"],
      intents: ["reply", "mark-read"],
      headers: () => withCookie(premiumBrowser),
      params: () => ({ conversationId: `dossier-${fileId}` }),
    },
    {
      name: "conversation with a peer (freemium, nothing to read)",
      action: conversationAction,
      url: "http://localhost/dashboard/messages/x",
      fields: [...field(messageSchemas.replySchema), "upTo"],
      intents: ["reply", "mark-read"],
      headers: () => withCookie(freemiumBrowser),
      params: () => ({ conversationId: `confrere-${premium.profile.id}` }),
    },
    {
      name: "file overview: messages read, undertaking (member)",
      action: fileOverviewAction,
      url: "http://localhost/dashboard/dossiers/x",
      fields: ["upTo", "accept"],
      intents: ["mark-read", "undertaking"],
      headers: () => withCookie(premiumBrowser),
      params: () => ({ fileId }),
    },
    {
      name: "fee-sharing agreement of a file (member)",
      action: agreementAction,
      url: "http://localhost/dashboard/dossiers/x/convention",
      fields: [...field(agreementSchemas.agreementSchema), ...field(agreementSchemas.signAgreementSchema)],
      intents: ["create", "sign"],
      headers: () => withCookie(premiumBrowser),
      params: () => ({ fileId }),
    },
    {
      // The due-diligence list of a file and one of its requests (issue 32 §3).
      name: "due-diligence list of a file (member)",
      action: dueDiligenceAction,
      url: "http://localhost/dashboard/dossiers/x/diligences",
      fields: [...field(dueDiligenceSchemas.createListSchema), ...field(dueDiligenceSchemas.addItemSchema)],
      intents: ["create", "add"],
      headers: () => withCookie(premiumBrowser),
      params: () => ({ fileId }),
    },
    {
      name: "due-diligence request of a file (member)",
      action: dueDiligenceItemAction,
      url: "http://localhost/dashboard/dossiers/x/diligences/y",
      fields: [
        ...field(dueDiligenceSchemas.updateItemSchema),
        ...field(dueDiligenceSchemas.statusSchema),
        ...field(dueDiligenceSchemas.askSchema),
        ...field(dueDiligenceSchemas.answerSchema),
      ],
      intents: ["update", "status", "remove", "link", "unlink", "ask", "answer", "close-question"],
      headers: () => withCookie(premiumBrowser),
      params: () => ({ fileId, requestId }),
    },
    {
      // Ratings of a file (issue 14 §3): rate, answer, report; the file has not ended.
      name: "ratings of a file (member)",
      action: evaluationAction,
      url: "http://localhost/dashboard/dossiers/x/evaluation",
      fields: [...field(ratingsSchemas.ratingSchema), ...field(ratingsSchemas.answerSchema), ...field(ratingsSchemas.reportSchema)],
      intents: ["rate", "answer", "report"],
      headers: () => withCookie(premiumBrowser),
      params: () => ({ fileId }),
    },
    {
      name: "onboarding",
      action: onboardingAction,
      url: "http://localhost/onboarding",
      fields: [
        ...field(onboardingSchemas.detailsSchema),
        ...field(onboardingSchemas.profileCreationSchema),
        ...field(onboardingSchemas.charterSchema),
        "sponsors",
        // The verification evidence step (issue 14).
        "siren",
        "registrationValue",
        "registrationYear",
        "insurer",
        "policyNumber",
        "insuranceEndsOn",
        "certificate",
      ],
      intents: ["profile", "charter", "details", "verification", "sponsors"],
      headers: () => withCookie(applicantBrowser),
    },
  ];

  it.each(targets)("$name: never a 500, errors in French", async (target) => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constantFrom(...target.intents, "x"), hostileString), formEntries(target.fields), async (intent, entries) => {
        const fd = formOf(entries);
        if (target.intents.length > 0) fd.set("intent", intent);
        const out = await run(target.action, target.url, fd, target.headers(), target.params?.() ?? {});
        expect(out.status, `${target.name}: ${JSON.stringify(entries).slice(0, 500)}`).toBeLessThan(500);
        if (out.status >= 400) expectFrenchBody(out.body, target.name);
      }),
      { numRuns: RUNS },
    );
  });

  // Intents named like Object.prototype's members, tried on every target, not left to chance.
  const INHERITED_NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];
  it.each(targets.filter((t) => t.intents.length > 0))("$name: an intent named like an inherited property is refused in French", async (target) => {
    for (const intent of INHERITED_NAMES) {
      const fd = formOf([["intent", intent]]);
      const out = await run(target.action, target.url, fd, target.headers(), target.params?.() ?? {});
      expect(out.status, `${target.name}: ${intent}`).toBeLessThan(500);
      if (out.status >= 400) expectFrenchBody(out.body, target.name);
    }
  });

  // Otherwise valid forms with control characters or lone surrogates in a text field.
  const NUL = ["a\u0000b", "\u0000"];
  const NASTY = ["x\u0007\u001b[2J\u007fy", "\uD800z", "a\r\nb\tc", "\u202Eabc"];
  const validByTarget = {
    contact: {
      action: contactAction,
      url: "http://localhost/contact",
      values: { firstName: "Paul", lastName: "Martin", email: "paul.martin@exemple.fr", company: "Cabinet", subject: "Question", message: "Bonjour" },
      params: {},
    },
    publicContact: {
      action: consultantAction,
      url: "http://localhost/consultant/x",
      values: { fullName: "Paul Martin", email: "paul.martin@exemple.fr", subject: "Question", message: "Bonjour" },
      params: null,
    },
  };

  for (const [name, target] of Object.entries(validByTarget)) {
    it(`${name}: NUL and control characters in a valid form never give a 500`, async () => {
      for (const [key, base] of Object.entries(target.values)) {
        if (key === "email") continue;
        for (const nasty of NASTY) {
          const fd = formOf(Object.entries({ ...target.values, [key]: `${base}${nasty}` }));
          const out = await run(target.action, target.url, fd, anonymous(), target.params ?? { slug });
          expect(out.status, `${key}: ${JSON.stringify(nasty)}`).toBeLessThan(500);
          if (out.status >= 400) expectFrenchBody(out.body, name);
        }
      }
    });
  }

  it("agreement: NUL, control characters and lone surrogates in the clauses never give a 500", async () => {
    for (const nasty of [...NUL, ...NASTY]) {
      const values = { intent: "create", operationType: "titres", myShare: "50", theirShare: "50", payer: "me", dueTerm: "deed", clauses: `Clause${nasty}` };
      const out = await run(agreementAction, "http://localhost/dashboard/dossiers/x/convention", formOf(Object.entries(values)), withCookie(premiumBrowser), { fileId });
      expect(out.status, JSON.stringify(nasty)).toBeLessThan(500);
      if (out.status >= 400) expectFrenchBody(out.body, "agreement");
    }
  });

  it("profile save and deal save: NUL and control characters in a valid form never give a 500", async () => {
    const profile = { locationDepartment: "75", locationCity: "Paris", fullAddress: "1 rue de Rivoli", detailedPresentation: "Bonjour", internalPresentation: "Bonjour" };
    const deal = { year: String(new Date().getFullYear() - 1), sector: "C", acquirerCedant: "Cession", dealDescription: "Bonjour" };
    for (const [intent, values] of [["profile", profile], ["deal-save", deal]] as const) {
      for (const [key, base] of Object.entries(values)) {
        if (key === "locationDepartment" || key === "year" || key === "sector") continue;
        for (const nasty of NASTY) {
          const fd = formOf(Object.entries({ ...values, intent, [key]: `${base}${nasty}` }));
          const out = await run(profileAction, "http://localhost/dashboard/profil", fd, withCookie(premiumBrowser));
          expect(out.status, `${intent} ${key}: ${JSON.stringify(nasty)}`).toBeLessThan(500);
          if (out.status >= 400) expectFrenchBody(out.body, intent);
        }
      }
    }
  });

  // PostgreSQL refuses U+0000 in text; both database drivers strip it from bound parameters
  // (app/db/client.server.ts stripNul), so such a form is stored without it instead of failing.
  it("NUL bytes in an otherwise valid form are refused or removed, never a 500", async () => {
    const cases: { action: AnyAction; url: string; values: Record<string, string>; field: string; params: Record<string, string> }[] = [
      { action: contactAction, url: "http://localhost/contact", values: validByTarget.contact.values, field: "firstName", params: {} },
      { action: consultantAction, url: "http://localhost/consultant/x", values: validByTarget.publicContact.values, field: "fullName", params: { slug } },
      { action: profileAction, url: "http://localhost/dashboard/profil", values: { intent: "profile", locationDepartment: "75", locationCity: "Paris" }, field: "locationCity", params: {} },
    ];
    for (const c of cases) {
      for (const nul of NUL) {
        const fd = formOf(Object.entries({ ...c.values, [c.field]: `x${nul}` }));
        const out = await run(c.action, c.url, fd, withCookie(premiumBrowser), c.params);
        expect(out.status, `${c.url} ${c.field}`).toBeLessThan(500);
      }
    }
  });

  // better-auth answers TWO_FACTOR_NOT_ENABLED here; passwordFailure() maps it to a 409.
  it("settings: backup codes or 2FA deactivation without 2FA answer a 4xx", async () => {
    for (const intent of ["regenerate-backup-codes", "disable-2fa"]) {
      const out = await run(settingsAction, "http://localhost/parametres", formOf([["intent", intent], ["password", "0"]]), withCookie(freemiumBrowser));
      expect(out.status, intent).toBeLessThan(500);
    }
  });

  // Invalid on purpose: a required field is blank or far too long, the rest random.
  const breakOne = (required: string[], limit: number) =>
    fc.tuple(fc.constantFrom(...required), fc.oneof(fc.constantFrom("", "   ", "\u0000\u0000"), fc.constant("x".repeat(limit + 1))));

  async function expectRefusedAndNothingStored(
    name: string,
    table: Parameters<typeof rowCount>[0],
    send: (entries: [string, string][], broken: [string, string]) => Promise<Outcome>,
    fields: string[],
    required: string[],
    limit: number,
  ) {
    const before = await rowCount(table);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...fields), hostileString), { maxLength: 15 }), breakOne(required, limit), async (entries, broken) => {
        const kept = entries.filter(([k]) => k !== broken[0]);
        const out = await send(kept, broken);
        expect(out.status, `${name}: ${broken[0]}`).toBeGreaterThanOrEqual(400);
        expect(out.status).toBeLessThan(500);
        expectFrenchBody(out.body, name);
      }),
      { numRuns: RUNS },
    );
    expect(await rowCount(table), `${name}: rows stored`).toBe(before);
  }

  it("contact page: an invalid message stores nothing", async () => {
    const fields = field(contactSchemas.contactPageSchema);
    await expectRefusedAndNothingStored(
      "contact page",
      contactMessages,
      (entries, broken) => run(contactAction, "http://localhost/contact", formOf([...entries, broken]), anonymous()),
      fields,
      ["firstName", "lastName", "email", "subject", "message"],
      10_000,
    );
  });

  it("public profile contact dialog: an invalid message stores nothing", async () => {
    // The honeypot is left empty: when filled, bots are told "sent" and nothing is stored.
    const fields = field(messageSchemas.publicContactSchema).filter((f) => f !== "website");
    await expectRefusedAndNothingStored(
      "public contact",
      messages,
      (entries, broken) => run(consultantAction, "http://localhost/consultant/x", formOf([...entries, broken]), anonymous(), { slug }),
      fields,
      ["fullName", "email", "subject", "message"],
      10_000,
    );
  });

  it("mandate creation: an invalid mandate stores nothing", async () => {
    const fields = field(mandateSchemas.mandateFormSchema);
    await expectRefusedAndNothingStored(
      "mandate creation",
      mandates,
      (entries, broken) => {
        const fd = formOf([...entries, broken]);
        fd.set("intent", "create");
        return run(mandatesAction, "http://localhost/mandates", fd, withCookie(premiumBrowser));
      },
      fields,
      ["clientCode", "clientName", "clientAddress", "startDate", "endDate"],
      1_000,
    );
  });

  it("profile save: an invalid profile changes nothing", async () => {
    const snapshot = async () => {
      const [p] = await t.db!.select().from(profiles).where(eq(profiles.id, premium.profile.id));
      return { ...p, updatedAt: null };
    };
    const before = await snapshot();
    const fields = field(profileSchemas.profileEditorSchema);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...fields), hostileString), { maxLength: 15 }),
        fc.oneof(fc.constantFrom("", "20", "Paris", "\u0000", "750"), hostileString.filter((s) => !/^(0[1-9]|[1-8]\d|9[0-5]|2[AB]|97[1-6])$/.test(s))),
        async (entries, department) => {
          const fd = formOf(entries.filter(([k]) => k !== "locationDepartment"));
          fd.set("intent", "profile");
          fd.set("locationDepartment", department);
          const out = await run(profileAction, "http://localhost/dashboard/profil", fd, withCookie(premiumBrowser));
          expect(out.status).toBe(400);
          expectFrenchBody(out.body, "profile save");
        },
      ),
      { numRuns: RUNS },
    );
    expect(await snapshot()).toEqual(before);
  });

  it("deal save: an invalid deal stores nothing", async () => {
    await expectRefusedAndNothingStored(
      "deal save",
      certifiedDeals,
      (entries, broken) => {
        const fd = formOf([...entries, broken]);
        fd.set("intent", "deal-save");
        return run(profileAction, "http://localhost/dashboard/profil", fd, withCookie(premiumBrowser));
      },
      field(dealSchemas.dealSchema()).filter((f) => f !== "dealId"),
      ["acquirerCedant", "year"],
      1_000,
    );
  });

  // Issue 27 §5: the parties are named only with their consent certified; anything else about
  // the disclosure fields is refused or falls back to the anonymised default.
  it("deal save: naming the parties without certifying their consent is refused in French", async () => {
    const before = await rowCount(certifiedDeals);
    const valid: [string, string][] = [
      ["intent", "deal-save"],
      ["year", String(new Date().getFullYear())],
      ["sector", "F"],
      ["acquirerCedant", "Capital Fontaine / Prévost SA"],
    ];
    const refused: Array<[string, [string, string][]]> = [
      ["named, no checkbox", [["disclosure", "named"]]],
      ["named, checkbox off", [["disclosure", "named"], ["partiesConsent", "off"]]],
      ["named, checkbox empty", [["disclosure", "named"], ["partiesConsent", ""]]],
      ["unknown disclosure", [["disclosure", "public"], ["partiesConsent", "on"]]],
      ["unknown size band", [["sizeBand", "1 milliard"]]],
      ["unknown region", [["region", "Atlantide"]]],
    ];
    for (const [label, extra] of refused) {
      const out = await run(profileAction, "http://localhost/dashboard/profil", formOf([...valid, ...extra]), withCookie(premiumBrowser));
      expect(out.status, label).toBe(400);
      expectFrenchBody(out.body, label);
      if (label.startsWith("named")) expect(JSON.stringify(out.body), label).toContain(dealSchemas.DEAL_MESSAGES.consentRequired);
    }
    expect(await rowCount(certifiedDeals), "rows stored").toBe(before);
    const ok = await run(
      profileAction,
      "http://localhost/dashboard/profil",
      formOf([...valid, ["disclosure", "named"], ["partiesConsent", "on"], ["sizeBand", "1to5"], ["region", "Bretagne"]]),
      withCookie(premiumBrowser),
    );
    expect(ok.status).toBe(302);
    expect(await rowCount(certifiedDeals)).toBe(before + 1);
  });
});

// Mediation (issue 14 §4) and the insurance renewal (issue 14 §1): the member's and the team's
// forms, multipart like the browser sends them.
describe("mediation and insurance forms with hostile input", () => {
  let fileId: string;
  let mediationId: string;
  let memberHeaders: () => Headers;
  let adminHeaders: () => Headers;

  beforeAll(async () => {
    const db = t.db!;
    const a = await createMember(db, { profile: { membershipType: "premium" } });
    const b = await createMember(db, { profile: { membershipType: "premium" } });
    const admin = await createMember(db, { admin: true });
    const mine = await createMandate(db, a.profile.id, { mandateType: "buyer" });
    const theirs = await createMandate(db, b.profile.id, { mandateType: "seller" });
    fileId = await db.transaction((tx) => openCollaborationFile(tx, mine.id, theirs.id));
    const [m] = await db
      .insert(mediations)
      .values({ fileId, openedBy: a.profile.id, openedByName: "A", respondentId: b.profile.id, respondentName: "B", subject: "Objet", facts: "Exposé des faits assez long." })
      .returning({ id: mediations.id });
    mediationId = m.id;
    const aBrowser = await signIn(a);
    const adminBrowser = await signIn(admin);
    await db.update(userTable).set({ twoFactorEnabled: true }).where(eqColumn(userTable.id, admin.user.id));
    const cookie = (br: Browser) => () => {
      const h = new Headers(br.headers);
      h.set("x-rt-client-ip", `203.0.113.${Math.floor(Math.random() * 250)}`);
      return h;
    };
    memberHeaders = cookie(aBrowser);
    adminHeaders = cookie(adminBrowser);
  });

  const targets = () => [
    { name: "mediation (member)", action: mediationAction, url: `http://localhost/dashboard/dossiers/${fileId}/mediation`, fields: ["subject", "facts", "attachments", "mediationId", "body"], intents: ["message"], headers: memberHeaders, params: { fileId } as Record<string, string> },
    { name: "mediation (team)", action: adminMediationAction, url: `http://localhost/admin/mediations/${mediationId}`, fields: ["to", "body", "outcome", "decision", "against", "breachKind"], intents: ["start", "message", "decide"], headers: adminHeaders, params: { mediationId } as Record<string, string> },
    { name: "insurance renewal", action: insuranceRenewalAction, url: "http://localhost/parametres/assurance", fields: ["insurer", "policyNumber", "insuranceEndsOn", "certificate"], intents: [], headers: memberHeaders, params: {} as Record<string, string> },
  ];

  it("never a 500", async () => {
    for (const target of targets()) {
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.constantFrom(...target.intents, "x"), hostileString), formEntries(target.fields), async (intent, entries) => {
          const fd = formOf(entries);
          if (target.intents.length > 0) fd.set("intent", intent);
          const out = await run(target.action, target.url, fd, target.headers(), target.params);
          expect(out.status, `${target.name}: ${JSON.stringify(entries).slice(0, 500)}`).toBeLessThan(500);
          if (out.status >= 400) expectFrenchBody(out.body, target.name);
        }),
        { numRuns: RUNS },
      );
    }
  });
});

// A participant's forms (decision 056): an upload into a chosen folder, a new version of a
// document, and the request's forms (answer with a document, status, ask, answer), as a member
// participant of the seller's side with every right, multipart and url-encoded like the browser.
describe("a participant's forms with hostile input", () => {
  useFileTestEnvironment(t, "bad-input-participant");
  let fileId: string;
  let requestId: string;
  let folderId: string;
  let buyerFolderId: string;
  let documentId: string;
  let headers: () => Headers;

  const pdfBytes = async () => {
    const doc = await PDFDocument.create();
    doc.addPage([200, 200]);
    return doc.save();
  };

  beforeAll(async () => {
    const db = t.db!;
    const buyer = await createMember(db, { profile: { membershipType: "premium" } });
    const seller = await createMember(db, { profile: { membershipType: "premium" } });
    const adviser = await createMember(db, { profile: { firstName: "Paule", lastName: "Comptable" } });
    const mine = await createMandate(db, buyer.profile.id, { mandateType: "buyer" });
    const theirs = await createMandate(db, seller.profile.id, { mandateType: "seller" });
    fileId = await db.transaction((tx) => openCollaborationFile(tx, mine.id, theirs.id));
    const now = new Date();
    await db.insert(collaborationParticipants).values({
      fileId,
      email: adviser.user.email,
      role: "expert_comptable",
      side: "cedant",
      status: "active",
      tokenHash: "bad-input",
      expiresAt: now,
      invitedByName: "Cédant",
      userId: adviser.user.id,
      profileId: adviser.profile.id,
      canView: true,
      canDownload: true,
      canUpload: true,
      acceptedAt: now,
      approvedAt: now,
      undertakingSignedAt: now,
    });
    const [folder] = await db.insert(collaborationFolders).values({ fileId, name: "Fiscal cédant", visibility: "cedant" }).returning({ id: collaborationFolders.id });
    folderId = folder!.id;
    const [buyers] = await db.insert(collaborationFolders).values({ fileId, name: "Financement acquéreur", visibility: "acquereur" }).returning({ id: collaborationFolders.id });
    buyerFolderId = buyers!.id;
    const [request] = await db.insert(dueDiligenceRequests).values({ fileId, category: "fiscal", title: "Liasses fiscales", position: 1 }).returning({ id: dueDiligenceRequests.id });
    requestId = request!.id;
    documentId = (await shareParticipantDocument(adviser.user.id, fileId, folderId, { name: "liasse.pdf", bytes: await pdfBytes() })).documentId;
    const browser = await signIn(adviser);
    headers = () => {
      const h = anonymous();
      h.set("cookie", browser.headers.get("cookie") ?? "");
      return h;
    };
  });

  const urlEncoded = (fd: FormData) => {
    const body = new URLSearchParams();
    for (const [k, v] of fd.entries()) body.append(k, typeof v === "string" ? v : v.name);
    return body;
  };
  /** Runs an action, multipart or url-encoded; says whether a refusal was thrown (to the error page: the form is lost). */
  async function send(actionFn: AnyAction, url: string, body: FormData | URLSearchParams, params: Record<string, string>): Promise<Outcome & { thrown: boolean }> {
    const request = new Request(url, { method: "POST", body, headers: headers() });
    try {
      return { ...outcomeOf(await actionFn({ request, params, context: { nonce: "", requestId: "t" } } as unknown as never)), thrown: false };
    } catch (error) {
      if (error instanceof Response || isDataWithInit(error)) return { ...outcomeOf(error), thrown: true };
      throw error;
    }
  }
  const runMultipart = send;
  const runEncoded = send;

  const targets = () => [
    {
      name: "shared file: upload into a folder, new version",
      action: sharedFileAction,
      url: `http://localhost/dossiers-partages/${fileId}`,
      fields: ["folderId", "documentId", "file"],
      intents: ["undertaking"],
      params: { fileId } as Record<string, string>,
    },
    {
      name: "shared request: answer with a document, status, ask, answer",
      action: sharedDdItemAction,
      url: `http://localhost/dossiers-partages/${fileId}/diligences/${requestId}`,
      fields: ["folderId", "file", ...fieldsOf(dueDiligenceSchemas.statusSchema), ...fieldsOf(dueDiligenceSchemas.askSchema), ...fieldsOf(dueDiligenceSchemas.answerSchema)],
      intents: ["ask", "answer", "status"],
      params: { fileId, requestId } as Record<string, string>,
    },
  ];

  it("never a 500, errors in French, multipart or url-encoded", async () => {
    for (const target of targets()) {
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.constantFrom(...target.intents, "x"), hostileString), formEntries(target.fields), fc.boolean(), async (intent, entries, multipart) => {
          const fd = formOf(entries);
          fd.set("intent", intent);
          const out = multipart ? await runMultipart(target.action, target.url, fd, target.params) : await runEncoded(target.action, target.url, urlEncoded(fd), target.params);
          expect(out.status, `${target.name}: ${JSON.stringify(entries).slice(0, 500)}`).toBeLessThan(500);
          if (out.status >= 400) expectFrenchBody(out.body, target.name);
        }),
        { numRuns: RUNS },
      );
    }
  });

  it("a refused field is answered on the page (returned, not thrown), in French, and stores nothing", async () => {
    const docsBefore = (await t.db!.select({ n: count() }).from(collaborationDocuments))[0]!.n;
    const questionsBefore = (await t.db!.select({ n: count() }).from(dueDiligenceQuestions))[0]!.n;
    const pdfFile = new File([new Uint8Array(await pdfBytes())], "reponse.pdf", { type: "application/pdf" });
    const multipart = (fields: Record<string, string>, file: File | null = pdfFile) => {
      const fd = new FormData();
      for (const [k, v] of Object.entries(fields)) fd.set(k, v);
      if (file) fd.set("file", file);
      return fd;
    };
    const unknown = "00000000-0000-4000-8000-000000000000";
    const fileUrl = `http://localhost/dossiers-partages/${fileId}`;
    const itemUrl = `${fileUrl}/diligences/${requestId}`;
    const cases: [string, () => Promise<Outcome & { thrown: boolean }>, number[]][] = [
      ["upload: folder not a UUID", () => runMultipart(sharedFileAction, fileUrl, multipart({ folderId: "../../etc" }), { fileId }), [400]],
      ["upload: unknown folder", () => runMultipart(sharedFileAction, fileUrl, multipart({ folderId: unknown }), { fileId }), [400]],
      ["upload: the other side's folder", () => runMultipart(sharedFileAction, fileUrl, multipart({ folderId: buyerFolderId }), { fileId }), [400]],
      ["upload: no file", () => runMultipart(sharedFileAction, fileUrl, multipart({ folderId }, null), { fileId }), [400]],
      ["upload: not a document type", () => runMultipart(sharedFileAction, fileUrl, multipart({ folderId }, new File(["#!/bin/sh"], "x.sh", { type: "text/x-sh" })), { fileId }), [400, 413, 415, 422]],
      ["new version: document not a UUID", () => runMultipart(sharedFileAction, fileUrl, multipart({ documentId: "<script>" }), { fileId }), [400]],
      ["new version: unknown document", () => runMultipart(sharedFileAction, fileUrl, multipart({ documentId: unknown }), { fileId }), [404]],
      ["new version: no file", () => runMultipart(sharedFileAction, fileUrl, multipart({ documentId }, null), { fileId }), [400]],
      ["answer with a document: folder not a UUID", () => runMultipart(sharedDdItemAction, itemUrl, multipart({ folderId: "1e308" }), { fileId, requestId }), [400]],
      ["answer with a document: unknown folder", () => runMultipart(sharedDdItemAction, itemUrl, multipart({ folderId: unknown }), { fileId, requestId }), [400]],
      ["answer with a document: no file", () => runMultipart(sharedDdItemAction, itemUrl, multipart({ folderId }, null), { fileId, requestId }), [400]],
      ["ask: empty question", () => runEncoded(sharedDdItemAction, itemUrl, new URLSearchParams({ intent: "ask", visibility: "commun", body: " " }), { fileId, requestId }), [400]],
      ["ask: question far too long", () => runEncoded(sharedDdItemAction, itemUrl, new URLSearchParams({ intent: "ask", visibility: "commun", body: "x".repeat(60_000) }), { fileId, requestId }), [400]],
      ["ask: unknown side", () => runEncoded(sharedDdItemAction, itemUrl, new URLSearchParams({ intent: "ask", visibility: "__proto__", body: "Le bail ?" }), { fileId, requestId }), [400]],
      ["ask: the other side's only", () => runEncoded(sharedDdItemAction, itemUrl, new URLSearchParams({ intent: "ask", visibility: "acquereur", body: "Le bail ?" }), { fileId, requestId }), [400]],
      ["ask: document not a UUID", () => runEncoded(sharedDdItemAction, itemUrl, new URLSearchParams({ intent: "ask", visibility: "commun", body: "Le bail ?", documentId: "x" }), { fileId, requestId }), [400]],
      ["answer: empty answer", () => runEncoded(sharedDdItemAction, itemUrl, new URLSearchParams({ intent: "answer", questionId: unknown, answer: "" }), { fileId, requestId }), [400]],
      ["status: unknown status", () => runEncoded(sharedDdItemAction, itemUrl, new URLSearchParams({ intent: "status", status: "NaN" }), { fileId, requestId }), [400]],
    ];
    for (const [name, send, statuses] of cases) {
      const out = await send();
      expect(out.thrown, `${name}: thrown to the error page, the form is lost`).toBe(false);
      expect(statuses, `${name}: status ${out.status}`).toContain(out.status);
      const error = (out.body as { error?: unknown } | null)?.error;
      expect(typeof error, name).toBe("string");
      expectFrench([error as string], name);
      if (/folder$/.test(name)) expect(error, name).toBe(DOCUMENT_MESSAGES.badFolder);
    }
    expect((await t.db!.select({ n: count() }).from(collaborationDocuments))[0]!.n).toBe(docsBefore);
    expect((await t.db!.select({ n: count() }).from(dueDiligenceQuestions))[0]!.n).toBe(questionsBefore);
  });
});

// Issue 26, item 5: an address the outbox would refuse (quoted, with a comment…) used to pass the
// sponsors form; the step advanced and no request was ever mailed.
describe("sponsor addresses the mailer would not send to", () => {
  const UNSENDABLE = ['"eve"@domaine.fr', '"eve martin"@domaine.fr', "eve(x)@domaine.fr", "(x)eve@domaine.fr", "eve@[192.0.2.1]", "Eve <eve@domaine.fr>", "ève@domaine.fr", "eve..x@domaine.fr"];
  let applicant: CreatedMember;
  let browser: Browser;

  beforeAll(async () => {
    setEnv({ ...getEnv(), BETTER_AUTH_SECRET: "test-secret-for-bad-input-tests-0123456789abcdef" });
    applicant = await createMember(t.db!, { profile: { profileStatus: "pending_validation", onboardingStatus: "profile_completed" } });
    await t.db!.insert(verificationEvidence).values(buildVerificationEvidence(applicant.profile));
    browser = await signIn(applicant);
  });

  const post = (sponsor1Email: string, sponsor2Email = "marc.durand@etude-durand.fr") => {
    const fd = formOf(Object.entries({ intent: "sponsors", sponsor1Name: "Ève Martin", sponsor1Email, sponsor2Name: "Marc Durand", sponsor2Email }));
    const headers = new Headers(browser.headers);
    headers.set("x-rt-client-ip", "192.0.2.77");
    return run(onboardingAction, "http://localhost/onboarding", fd, headers);
  };
  const state = async () => {
    const [p] = await t.db!.select({ status: profiles.onboardingStatus }).from(profiles).where(eq(profiles.id, applicant.profile.id));
    const sponsors = await t.db!.select({ email: recommendations.sponsorEmail }).from(recommendations).where(eq(recommendations.profileId, applicant.profile.id));
    const mails = await t.db!.select({ to: mailOutbox.toAddress }).from(mailOutbox).where(eq(mailOutbox.kind, "sponsor-request"));
    return { status: p.status, sponsors: sponsors.map((r) => r.email).sort(), mails: mails.map((m) => m.to).sort() };
  };

  it.each(UNSENDABLE)("%s is refused with the form's French message; nothing is stored, sent or advanced", async (address) => {
    const out = await post(address);
    expect(out.status).toBe(400);
    const body = out.body as { result?: { error?: Record<string, string[] | null> } };
    expect(body.result?.error?.sponsor1Email).toEqual([onboardingSchemas.ONBOARDING_MESSAGES.sponsorEmail(address.toLowerCase())]);
    expect(await state()).toEqual({ status: "profile_completed", sponsors: [], mails: [] });
  });

  it("addresses the mailer sends to pass, are stored and mailed, and the step advances", async () => {
    const out = await post("eve.martin+notaire@domaine.fr");
    expect(out.status).toBeLessThan(400);
    expect(await state()).toEqual({
      status: "recommendations_pending",
      sponsors: ["eve.martin+notaire@domaine.fr", "marc.durand@etude-durand.fr"],
      mails: ["eve.martin+notaire@domaine.fr", "marc.durand@etude-durand.fr"],
    });
  });
});
