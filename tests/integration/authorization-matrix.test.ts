// Authorization matrix (issue 8, security suite): every route of app/routes.ts × every role, with
// the expected outcome of a GET (the loader) and, for routes with an action, of a POST (an empty
// form: what matters is who gets past the guards). Cells run in-process: the route module's
// loader/action is called the way React Router calls it, with the role's better-auth session
// cookie. A route of app/routes.ts missing from the table fails the test.
//
// Outcome notation: a number is the HTTP status (200 for a plain returned value), "redirect:/x"
// a 30x to /x (a trailing * matches any rest), "skip: reason" a cell that is not automated (printed, not run).
//
// To refresh the table after a route change: MATRIX_PROBE=1 npx vitest run
// tests/integration/authorization-matrix.test.ts prints the observed table.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAuth } from "~/auth/auth.server";
import { collaborationDocuments, collaborationFiles, dueDiligenceRequests, feeAgreements, mandateMatchRequests, mediationAttachments, mediations, messageReads, payments, profiles, user, verificationEvidence } from "~/db/schema";
import { issueInvoiceForPayment } from "~/features/billing/invoices.server";
import { createDatabaseStorage } from "~/lib/storage/database-driver.server";
import { sha256Hex } from "~/lib/storage/integrity.server";
import { setStorage } from "~/lib/storage/storage.server";
import { profileSlug } from "~/lib/slug";
import routeConfig from "../../app/routes";
import {
  createApplicant,
  createMandate,
  createMember,
  createMessage,
  type CreatedMember,
  type Mandate,
  type Message,
  seedFactories,
} from "../support/factories";
import { useTestDatabase } from "../support/db";

// A bound against a hang: alone the matrix takes seconds, but at `nice 10` beside the browser
// suite on a slow host it passed 120 s (decision 076).
const MATRIX_TIMEOUT_MS = 600_000;

const t = useTestDatabase();

// ---- roles -------------------------------------------------------------------------------------

const ROLES = [
  "anonymous",
  "noProfile",
  "pending",
  "freemium",
  "premium",
  "founding",
  "suspended",
  "admin",
  "admin2fa",
] as const;
type Role = (typeof ROLES)[number];

type Expected = number | `redirect:${string}` | `skip: ${string}`;
type Cells = Record<Role, Expected>;

type Fixtures = {
  members: Record<Exclude<Role, "anonymous">, CreatedMember>;
  /** A message received by the premium member. */
  premiumMessage: Message;
  /** A mandate of the premium member. */
  premiumMandate: Mandate;
  /** A pending connection request from the founding member's mandate to the premium member's. */
  matchRequestId: string;
  /** A local checkout session started by the freemium member. */
  checkoutSessionId: string;
  /** A collaboration file between the premium and the founding members. */
  fileId: string;
  /** A document shared by the founding member in that file. */
  documentId: string;
  /** A fee-sharing agreement proposed by the founding member in that file. */
  agreementId: string;
  /** A due-diligence request of that file. */
  requestId: string;
  /** A mediation opened by the founding member in that file, and the document it joined. */
  mediationId: string;
  attachmentId: string;
  /** The founding member's invoice (a paid payment). */
  invoiceId: string;
};

const slugOf = (m: CreatedMember) => profileSlug(m.profile);

function matches(expected: Expected, actual: Expected | string): boolean {
  if (typeof expected === "string" && expected.endsWith("*") && typeof actual === "string") {
    return actual.startsWith(expected.slice(0, -1));
  }
  return actual === expected;
}

type Entry = {
  /** Path pattern, as flattened from app/routes.ts. */
  path: string;
  /** Route module, as in app/routes.ts. */
  file: string;
  /** Concrete URL when the pattern has parameters or needs a query. */
  url?: (f: Fixtures) => { url: string; params: Record<string, string> };
  get: Cells;
  /** Present exactly when the module exports an action. */
  post?: Cells;
  /** The action ends the session: each cell uses a fresh one. */
  freshSession?: true;
};

// Shorthands for the common rows.
const all = (v: Expected): Cells => Object.fromEntries(ROLES.map((r) => [r, v])) as Cells;
const cells = (base: Expected, overrides: Partial<Cells>): Cells => ({ ...all(base), ...overrides });

/** The premium member's conversation with the founding member, as the premium member names it. */
function conversationUrl(f: Fixtures) {
  const key = `confrere-${f.members.founding.profile.id}`;
  return { url: `/dashboard/messages/${key}`, params: { conversationId: key } };
}

// ---- the table ---------------------------------------------------------------------------------

// Common rows.
const PUBLIC = all(200);
/** requireMember: validated, non-suspended profile (admins are members too). */
const MEMBER_GET = cells(200, {
  anonymous: "redirect:/auth",
  noProfile: "redirect:/onboarding",
  pending: "redirect:/onboarding",
  suspended: "redirect:/onboarding",
});
const memberOnly = (v: Expected): Partial<Cells> => ({ freemium: v, premium: v, founding: v, admin: v, admin2fa: v });
/** requireMember on a mutation; `ok` is the outcome of an empty form for a member. */
const memberPost = (ok: Expected): Cells => cells(ok, { anonymous: 401, noProfile: 403, pending: 403, suspended: 403 });
/** requireAdminWithTwoFactor. */
const ADMIN_GET = cells("redirect:/", {
  admin: "redirect:/parametres/securite?admin=1",
  admin2fa: 200,
});
const adminPost = (ok: Expected): Cells => cells(403, { admin2fa: ok });
/** requireAnonymous: signed-in users are sent to /onboarding (which routes them on). */
const anonymousOnly = (ok: Expected): Cells => cells("redirect:/onboarding", { anonymous: ok });
/** requireUser: any signed-in account, profile or not (account settings, GDPR export). */
const USER_GET = cells(200, { anonymous: "redirect:/auth" });

const TABLE: Entry[] = [
  // The member space's frame (pathless layout): it guards nothing, each page under it does; it
  // only tells a member's frame from the public header.
  { path: "/", file: "routes/member/shell.tsx", get: PUBLIC },
  { path: "/", file: "routes/public/landing.tsx", get: PUBLIC },
  { path: "/annuaire", file: "routes/public/annuaire.tsx", get: PUBLIC },
  {
    path: "/consultant/:slug",
    file: "routes/public/consultant.tsx",
    url: (f) => ({ url: `/consultant/${slugOf(f.members.freemium)}`, params: { slug: slugOf(f.members.freemium) } }),
    get: PUBLIC,
    // Contact form: an empty form is a validation error for everyone.
    post: all(400),
  },
  { path: "/auth", file: "routes/public/auth.tsx", get: anonymousOnly(200), post: anonymousOnly(400) },
  {
    path: "/onboarding",
    file: "routes/member/onboarding.tsx",
    // Validated members are done with onboarding; a suspended member sees their status there.
    get: cells("redirect:/dashboard", { anonymous: "redirect:/auth", noProfile: 200, pending: 200, suspended: 200 }),
    post: cells("redirect:/dashboard", { anonymous: 401, noProfile: 400, pending: 400, suspended: 400 }),
  },
  { path: "/join-founder", file: "routes/public/join-founder.tsx", get: PUBLIC },
  { path: "/dashboard", file: "routes/member/dashboard/layout.tsx", get: MEMBER_GET },
  { path: "/dashboard", file: "routes/member/dashboard/overview.tsx", get: MEMBER_GET },
  { path: "/dashboard/messages", file: "routes/member/dashboard/messages.tsx", get: MEMBER_GET },
  {
    path: "/dashboard/messages/:conversationId",
    file: "routes/member/dashboard/conversation.tsx",
    // The premium member's conversation with the founding member (issue 31 §3): only its two
    // members open it, each under the other's name; a URL naming oneself is nobody's.
    url: conversationUrl,
    get: { ...MEMBER_GET, freemium: 404, premium: 200, founding: 404, admin: 404, admin2fa: 404 },
    post: memberPost(400),
  },
  { path: "/dashboard/annuaire", file: "routes/member/dashboard/directory.tsx", get: MEMBER_GET, post: memberPost(400) },
  { path: "/dashboard/profil", file: "routes/member/dashboard/profile.tsx", get: MEMBER_GET, post: memberPost(400) },
  // One place with /mandates (decision 017): the tab's URL leads there.
  { path: "/dashboard/mandats", file: "routes/member/dashboard/mandates.tsx", get: { ...MEMBER_GET, ...memberOnly("redirect:/mandates") } },
  { path: "/dashboard/stats", file: "routes/member/dashboard/stats.tsx", get: MEMBER_GET },
  // The notification centre (issue 15 §3): each member's own notifications only (scoped by user).
  { path: "/dashboard/notifications", file: "routes/member/dashboard/notifications.tsx", get: MEMBER_GET, post: memberPost(400) },
  { path: "/dashboard/dossiers", file: "routes/member/dashboard/files.tsx", get: MEMBER_GET },
  // A file between the premium and the founding members: nobody else opens it, admins included.
  {
    path: "/dashboard/dossiers/:fileId",
    file: "routes/member/dashboard/file/layout.tsx",
    url: (f) => ({ url: `/dashboard/dossiers/${f.fileId}`, params: { fileId: f.fileId } }),
    get: { ...MEMBER_GET, freemium: 404, admin: 404, admin2fa: 404 },
  },
  {
    path: "/dashboard/dossiers/:fileId",
    file: "routes/member/dashboard/file/overview.tsx",
    url: (f) => ({ url: `/dashboard/dossiers/${f.fileId}`, params: { fileId: f.fileId } }),
    get: { ...MEMBER_GET, freemium: 404, admin: 404, admin2fa: 404 },
    post: { ...memberPost(400), freemium: 404, admin: 404, admin2fa: 404 },
  },
  // The documents of a file between the premium and the founding members: nobody else reaches
  // them, admins included.
  {
    path: "/dashboard/dossiers/:fileId/documents",
    file: "routes/member/dashboard/file/documents.tsx",
    url: (f) => ({ url: `/dashboard/dossiers/${f.fileId}/documents`, params: { fileId: f.fileId } }),
    get: { ...MEMBER_GET, freemium: 404, admin: 404, admin2fa: 404 },
    post: { ...memberPost(400), freemium: 404, admin: 404, admin2fa: 404 },
  },
  {
    path: "/dashboard/dossiers/:fileId/documents/:documentId",
    file: "routes/member/dashboard/file/document.ts",
    url: (f) => ({
      url: `/dashboard/dossiers/${f.fileId}/documents/${f.documentId}?mode=download`,
      params: { fileId: f.fileId, documentId: f.documentId },
    }),
    get: { ...MEMBER_GET, freemium: 404, admin: 404, admin2fa: 404 },
  },
  // The fee-sharing agreement of that file, its PDF and the evidence export: the two members only.
  {
    path: "/dashboard/dossiers/:fileId/convention",
    file: "routes/member/dashboard/file/agreement.tsx",
    url: (f) => ({ url: `/dashboard/dossiers/${f.fileId}/convention`, params: { fileId: f.fileId } }),
    get: { ...MEMBER_GET, freemium: 404, admin: 404, admin2fa: 404 },
    post: { ...memberPost(400), freemium: 404, admin: 404, admin2fa: 404 },
  },
  // The draft PDF of a version about to be proposed (issue 27): an empty form is refused (400).
  {
    path: "/dashboard/dossiers/:fileId/convention/apercu",
    file: "routes/member/dashboard/file/agreement-preview.ts",
    url: (f) => ({ url: `/dashboard/dossiers/${f.fileId}/convention/apercu`, params: { fileId: f.fileId } }),
    get: all(405),
    post: { ...memberPost(400), freemium: 404, admin: 404, admin2fa: 404 },
  },
  {
    path: "/dashboard/dossiers/:fileId/convention/:agreementId",
    file: "routes/member/dashboard/file/agreement-pdf.ts",
    url: (f) => ({
      url: `/dashboard/dossiers/${f.fileId}/convention/${f.agreementId}?exemplaire=original`,
      params: { fileId: f.fileId, agreementId: f.agreementId },
    }),
    get: { ...MEMBER_GET, freemium: 404, admin: 404, admin2fa: 404 },
  },
  {
    path: "/dashboard/dossiers/:fileId/historique",
    file: "routes/member/dashboard/file/evidence.ts",
    url: (f) => ({ url: `/dashboard/dossiers/${f.fileId}/historique`, params: { fileId: f.fileId } }),
    get: { ...MEMBER_GET, freemium: 404, admin: 404, admin2fa: 404 },
  },
  // Its due-diligence list, exports and requests (issue 32 §3): the two members only. The people a
  // file adds (guests before and after approval, member participants, removed ones) have their
  // own columns for these routes and the /dossiers-partages ones in
  // collaboration-participants.test.ts ("authorization matrix of a file's participants").
  {
    path: "/dashboard/dossiers/:fileId/diligences",
    file: "routes/member/dashboard/file/due-diligence.tsx",
    url: (f) => ({ url: `/dashboard/dossiers/${f.fileId}/diligences`, params: { fileId: f.fileId } }),
    get: { ...MEMBER_GET, freemium: 404, admin: 404, admin2fa: 404 },
    post: { ...memberPost(400), freemium: 404, admin: 404, admin2fa: 404 },
  },
  {
    path: "/dashboard/dossiers/:fileId/diligences/export",
    file: "routes/member/dashboard/file/due-diligence-export.ts",
    url: (f) => ({ url: `/dashboard/dossiers/${f.fileId}/diligences/export?format=xlsx`, params: { fileId: f.fileId } }),
    get: { ...MEMBER_GET, freemium: 404, admin: 404, admin2fa: 404 },
  },
  {
    path: "/dashboard/dossiers/:fileId/diligences/:requestId",
    file: "routes/member/dashboard/file/due-diligence-item.tsx",
    url: (f) => ({ url: `/dashboard/dossiers/${f.fileId}/diligences/${f.requestId}`, params: { fileId: f.fileId, requestId: f.requestId } }),
    get: { ...MEMBER_GET, freemium: 404, admin: 404, admin2fa: 404 },
    post: { ...memberPost(400), freemium: 404, admin: 404, admin2fa: 404 },
  },
  {
    path: "/dashboard/dossiers/:fileId/engagements",
    file: "routes/member/dashboard/file/undertakings.ts",
    url: (f) => ({ url: `/dashboard/dossiers/${f.fileId}/engagements`, params: { fileId: f.fileId } }),
    get: { ...MEMBER_GET, freemium: 404, admin: 404, admin2fa: 404 },
  },
  // The closing archive: the file's members (409 here: the matrix's file is not concluded).
  {
    path: "/dashboard/dossiers/:fileId/archive",
    file: "routes/member/dashboard/file/archive.ts",
    url: (f) => ({ url: `/dashboard/dossiers/${f.fileId}/archive`, params: { fileId: f.fileId } }),
    get: { ...MEMBER_GET, founding: 409, premium: 409, freemium: 404, admin: 404, admin2fa: 404 },
  },
  // Its mediation (issue 14 §4): the two members; the team reads it from /admin/mediations only.
  {
    path: "/dashboard/dossiers/:fileId/mediation",
    file: "routes/member/dashboard/file/mediation.tsx",
    url: (f) => ({ url: `/dashboard/dossiers/${f.fileId}/mediation`, params: { fileId: f.fileId } }),
    get: { ...MEMBER_GET, freemium: 404, admin: 404, admin2fa: 404 },
    post: { ...memberPost(400), freemium: 404, admin: 404, admin2fa: 404 },
  },
  // Its participants and folders (issue 32): the two founders manage them; everyone else a 404.
  {
    path: "/dashboard/dossiers/:fileId/intervenants",
    file: "routes/member/dashboard/file/participants.tsx",
    url: (f) => ({ url: `/dashboard/dossiers/${f.fileId}/intervenants`, params: { fileId: f.fileId } }),
    get: { ...MEMBER_GET, freemium: 404, admin: 404, admin2fa: 404 },
    post: { ...memberPost(400), freemium: 404, admin: 404, admin2fa: 404 },
  },
  // A file as a participant or guest reads it (issue 32, decision 051): a founder is sent to the
  // file's own pages; anyone not admitted gets a 404, whatever their role.
  {
    path: "/dossiers-partages",
    file: "routes/shared/files.tsx",
    get: USER_GET,
    // A guest marks its news read: anyone signed in, on their own notifications only.
    post: cells(400, { anonymous: 401 }),
  },
  {
    path: "/dossiers-partages/:fileId",
    file: "routes/shared/file.tsx",
    url: (f) => ({ url: `/dossiers-partages/${f.fileId}`, params: { fileId: f.fileId } }),
    get: cells(404, { anonymous: "redirect:/auth", premium: "redirect:/dashboard/dossiers/*", founding: "redirect:/dashboard/dossiers/*" }),
    post: cells(404, { anonymous: 401, premium: 400, founding: 400 }),
  },
  {
    path: "/dossiers-partages/:fileId/documents/:documentId",
    file: "routes/shared/document.ts",
    url: (f) => ({ url: `/dossiers-partages/${f.fileId}/documents/${f.documentId}?mode=download`, params: { fileId: f.fileId, documentId: f.documentId } }),
    get: cells(404, { anonymous: "redirect:/auth", premium: 200, founding: 200 }),
  },
  // The due-diligence list, a request and the closing archive as a participant reaches them
  // (decision 056): a founder is sent to the file's own pages or refused a post; others a 404.
  {
    path: "/dossiers-partages/:fileId/diligences",
    file: "routes/shared/due-diligence.tsx",
    url: (f) => ({ url: `/dossiers-partages/${f.fileId}/diligences`, params: { fileId: f.fileId } }),
    get: cells(404, { anonymous: "redirect:/auth", premium: "redirect:/dashboard/dossiers/*", founding: "redirect:/dashboard/dossiers/*" }),
  },
  {
    path: "/dossiers-partages/:fileId/diligences/:requestId",
    file: "routes/shared/due-diligence-item.tsx",
    url: (f) => ({ url: `/dossiers-partages/${f.fileId}/diligences/${f.requestId}`, params: { fileId: f.fileId, requestId: f.requestId } }),
    get: cells(404, { anonymous: "redirect:/auth", premium: "redirect:/dashboard/dossiers/*", founding: "redirect:/dashboard/dossiers/*" }),
    post: cells(404, { anonymous: 401, premium: 400, founding: 400 }),
  },
  {
    path: "/dossiers-partages/:fileId/archive",
    file: "routes/shared/archive.ts",
    url: (f) => ({ url: `/dossiers-partages/${f.fileId}/archive`, params: { fileId: f.fileId } }),
    get: cells(404, { anonymous: "redirect:/auth", premium: 409, founding: 409 }),
  },
  // An invitation link (issue 32): an unknown secret is a 404 for everyone.
  {
    path: "/invitation/:token",
    file: "routes/public/invitation.tsx",
    url: () => ({ url: "/invitation/inconnu-0123456789abcdefghijkl", params: { token: "inconnu-0123456789abcdefghijkl" } }),
    get: all(404),
    post: all(400),
  },
  // Its ratings (issue 14 §3): the two members only.
  {
    path: "/dashboard/dossiers/:fileId/evaluation",
    file: "routes/member/dashboard/file/evaluation.tsx",
    url: (f) => ({ url: `/dashboard/dossiers/${f.fileId}/evaluation`, params: { fileId: f.fileId } }),
    get: { ...MEMBER_GET, freemium: 404, admin: 404, admin2fa: 404 },
    post: { ...memberPost(400), freemium: 404, admin: 404, admin2fa: 404 },
  },
  {
    path: "/premium",
    file: "routes/member/premium.tsx",
    get: MEMBER_GET,
    // Freemium members (admins included) go to the checkout; already premium: 409.
    post: { ...memberPost(409), freemium: "redirect:http://localhost:3000/paiement-test/*", admin: "redirect:http://localhost:3000/paiement-test/*", admin2fa: "redirect:http://localhost:3000/paiement-test/*" },
  },
  { path: "/admin", file: "routes/admin/layout.tsx", get: ADMIN_GET },
  { path: "/admin", file: "routes/admin/profiles.tsx", get: ADMIN_GET, post: adminPost(400) },
  { path: "/admin/deals", file: "routes/admin/deals.tsx", get: ADMIN_GET, post: adminPost(400) },
  // Moderation of reported ratings (issue 14 §3).
  { path: "/admin/evaluations", file: "routes/admin/ratings.tsx", get: ADMIN_GET, post: adminPost(400) },
  { path: "/admin/recommandations", file: "routes/admin/recommendations.tsx", get: ADMIN_GET },
  { path: "/admin/recommandations/export.csv", file: "routes/admin/recommendations-csv.ts", get: ADMIN_GET },
  { path: "/admin/recommandations/emails", file: "routes/admin/recommendations-emails.ts", get: ADMIN_GET },
  { path: "/admin/journal", file: "routes/admin/journal.tsx", get: ADMIN_GET },
  { path: "/admin/mediations", file: "routes/admin/mediations.tsx", get: ADMIN_GET },
  {
    path: "/admin/mediations/:mediationId",
    file: "routes/admin/mediation.tsx",
    url: (f) => ({ url: `/admin/mediations/${f.mediationId}`, params: { mediationId: f.mediationId } }),
    get: ADMIN_GET,
    post: adminPost(400),
  },
  { path: "/mandates", file: "routes/member/mandates.tsx", get: MEMBER_GET, post: memberPost(400) },
  // Token pages: without a token, an explanation page; the token is the authorization.
  { path: "/confirm-recommendation", file: "routes/public/confirm-recommendation.tsx", get: PUBLIC, post: PUBLIC },
  { path: "/concept", file: "routes/public/concept.tsx", get: PUBLIC },
  { path: "/tiers-confiance", file: "routes/public/tiers-confiance.tsx", get: PUBLIC },
  { path: "/mentions-legales", file: "routes/public/mentions-legales.tsx", get: PUBLIC },
  { path: "/cgu", file: "routes/public/cgu.tsx", get: PUBLIC },
  { path: "/politique-confidentialite", file: "routes/public/politique-confidentialite.tsx", get: PUBLIC },
  { path: "/contact", file: "routes/public/contact.tsx", get: PUBLIC, post: all(400) },
  { path: "/faq", file: "routes/public/faq.tsx", get: PUBLIC },
  { path: "/support", file: "routes/public/support.tsx", get: PUBLIC },
  { path: "/aide", file: "routes/public/aide.tsx", get: PUBLIC },
  { path: "/cookies", file: "routes/public/cookies.tsx", get: PUBLIC },
  // The settings: a frame and one page per subject; every form of them is refused empty.
  { path: "/parametres", file: "routes/member/settings.tsx", get: USER_GET, post: cells(400, { anonymous: 401 }) },
  { path: "/parametres", file: "routes/member/settings/account.tsx", get: USER_GET, post: cells(400, { anonymous: 401 }) },
  { path: "/parametres/securite", file: "routes/member/settings/security.tsx", get: USER_GET, post: cells(400, { anonymous: 401 }) },
  { path: "/parametres/notifications", file: "routes/member/settings/notifications.tsx", get: USER_GET, post: cells(400, { anonymous: 401 }) },
  { path: "/parametres/donnees", file: "routes/member/settings/data.tsx", get: USER_GET, post: cells(400, { anonymous: 401 }) },
  { path: "/parametres/export", file: "routes/member/settings-export.ts", get: USER_GET },
  // Billing (issue 27 §4): any account with a profile (an applicant pays at onboarding).
  {
    path: "/parametres/facturation",
    file: "routes/member/billing.tsx",
    get: cells(200, { anonymous: "redirect:/auth", noProfile: 404 }),
    post: cells(400, { anonymous: 401, noProfile: 404 }),
  },
  // The founding member's invoice: nobody else downloads it, admins included.
  {
    path: "/parametres/facturation/:invoiceId",
    file: "routes/member/invoice-pdf.ts",
    url: (f) => ({ url: `/parametres/facturation/${f.invoiceId}`, params: { invoiceId: f.invoiceId } }),
    get: cells(404, { anonymous: "redirect:/auth", founding: 200 }),
  },
  // A validated member's new insurance certificate (issue 14 §1).
  { path: "/parametres/assurance", file: "routes/member/insurance-renewal.tsx", get: MEMBER_GET, post: memberPost(400) },
  // The applicant's insurance certificate (issue 14): the applicant and admins with their second
  // factor; a 404 for everyone else signed in.
  {
    path: "/justificatifs/:profileId/assurance",
    file: "routes/member/insurance-certificate.ts",
    url: (f) => ({ url: `/justificatifs/${f.members.pending.profile.id}/assurance`, params: { profileId: f.members.pending.profile.id } }),
    get: cells(404, { anonymous: "redirect:/auth", pending: 200, admin2fa: 200 }),
  },
  // A document joined to a mediation: the member who joined it and admins with their second factor.
  {
    path: "/mediations/pieces/:attachmentId",
    file: "routes/member/mediation-attachment.ts",
    url: (f) => ({ url: `/mediations/pieces/${f.attachmentId}`, params: { attachmentId: f.attachmentId } }),
    get: cells(404, { anonymous: "redirect:/auth", founding: 200, admin2fa: 200 }),
  },
  { path: "/desabonnement", file: "routes/public/unsubscribe.tsx", get: PUBLIC, post: PUBLIC },
  {
    path: "/auth/mot-de-passe-oublie",
    file: "routes/public/forgot-password.tsx",
    get: anonymousOnly(200),
    post: anonymousOnly(400),
  },
  {
    path: "/auth/nouveau-mot-de-passe",
    file: "routes/public/reset-password.tsx",
    get: anonymousOnly(200),
    post: anonymousOnly(400),
  },
  { path: "/logout", file: "routes/api/logout.ts", get: all("redirect:/"), post: all("redirect:/"), freshSession: true },
  {
    path: "/api/auth/*",
    file: "routes/api/auth.ts",
    // better-auth's own endpoints; its password sign-in is not served over HTTP (the /auth
    // action, with its per-account limits, is the way in: tests/system/sessions-bruteforce).
    url: () => ({ url: "/api/auth/sign-in/email", params: { "*": "sign-in/email" } }),
    get: all(404),
    post: all(404),
  },
  // Live notifications: any signed-in account's own state and stream; 401 (no redirect) otherwise.
  { path: "/api/notifications", file: "routes/api/notifications.ts", get: cells(200, { anonymous: 401 }) },
  { path: "/api/notifications/stream", file: "routes/api/notifications-stream.ts", get: cells(200, { anonymous: 401 }) },
  { path: "/healthz", file: "routes/api/healthz.ts", get: PUBLIC },
  { path: "/readyz", file: "routes/api/readyz.ts", get: PUBLIC },
  { path: "/sitemap.xml", file: "routes/api/sitemap.ts", get: PUBLIC },
  { path: "/robots.txt", file: "routes/api/robots.ts", get: PUBLIC },
  { path: "/manifest.webmanifest", file: "routes/api/manifest.ts", get: PUBLIC },
  // A plain form POST (no JavaScript) comes back to the profile editor with a toast.
  {
    path: "/api/uploads",
    file: "routes/api/upload.ts",
    get: { ...MEMBER_GET, ...memberOnly("redirect:/dashboard/profil") },
    post: memberPost("redirect:/dashboard/profil"),
  },
  {
    path: "/uploads/*",
    file: "routes/api/uploads-file.ts",
    url: () => ({ url: "/uploads/photos/inconnu.webp", params: { "*": "photos/inconnu.webp" } }),
    get: all(404),
  },
  // The local mailbox exists only without SMTP (the test setup); env.server.ts refuses an https
  // APP_URL without SMTP_URL, so a public deployment never serves it.
  // Every role of this matrix comes from a network address: the local mailbox answers the
  // machine itself only (issue 12, finding 7; loopback clients in mail/mailbox-routes.test.ts).
  { path: "/dev/mailbox", file: "routes/dev/mailbox.tsx", get: all(404) },
  { path: "/dev/mailbox.json", file: "routes/dev/mailbox-json.ts", get: all(404) },
  {
    path: "/dev/mailbox/:id",
    file: "routes/dev/mailbox-message.tsx",
    url: () => ({ url: "/dev/mailbox/00000000-0000-4000-8000-000000000000", params: { id: "00000000-0000-4000-8000-000000000000" } }),
    get: all(404),
  },
  // The caches' page exists in development only (NODE_ENV is "test" here: tests/integration/dev-pages.test.ts).
  { path: "/dev/caches", file: "routes/dev/caches.tsx", get: all(404) },
  { path: "/dev/style", file: "routes/dev/style.tsx", get: all(404) },
  // Signature checked before anything else.
  { path: "/api/webhooks/stripe", file: "routes/api/stripe-webhook.ts", get: all(405), post: all(400) },
  {
    path: "/paiement-test/:sessionId",
    file: "routes/member/test-checkout.tsx",
    url: () => ({ url: "/paiement-test/local_inconnu", params: { sessionId: "local_inconnu" } }),
    get: cells(404, { anonymous: "redirect:/auth" }),
    // The intent is checked first: an empty form is a 400 (ownership: see OWNERSHIP).
    post: cells(400, { anonymous: 401 }),
  },
  {
    path: "/*",
    file: "routes/public/not-found.tsx",
    url: () => ({ url: "/page-inexistante", params: { "*": "page-inexistante" } }),
    get: all(404),
    post: all(404),
  },
];

// ---- ownership cases (id-bearing routes: the owner vs another member) ---------------------------

type OwnershipCase = {
  name: string;
  file: string;
  method: "GET" | "POST";
  role: Role;
  url: (f: Fixtures) => { url: string; params: Record<string, string> };
  fields?: Record<string, string>;
  expected: Expected;
};

const mandateDialog = (key: string) => (f: Fixtures) => ({ url: `/mandates?${key}=${f.premiumMandate.id}`, params: {} });
const CONVERSATION = "routes/member/dashboard/conversation.tsx";
const messageUrl = (f: Fixtures) => ({ url: `/dashboard/messages/${f.premiumMessage.id}`, params: { conversationId: f.premiumMessage.id } });
const fileConversationUrl = (f: Fixtures) => ({ url: `/dashboard/messages/dossier-${f.fileId}`, params: { conversationId: `dossier-${f.fileId}` } });
const checkoutUrl = (f: Fixtures) => ({ url: `/paiement-test/${f.checkoutSessionId}`, params: { sessionId: f.checkoutSessionId } });
const slugUrl = (role: Exclude<Role, "anonymous">) => (f: Fixtures) => ({
  url: `/consultant/${slugOf(f.members[role])}`,
  params: { slug: slugOf(f.members[role]) },
});

const OWNERSHIP: OwnershipCase[] = [
  // Mandate dialogs: the premium member's mandate.
  { name: "mandate details, owner", file: "routes/member/mandates.tsx", method: "GET", role: "premium", url: mandateDialog("details"), expected: 200 },
  { name: "mandate details, another member", file: "routes/member/mandates.tsx", method: "GET", role: "founding", url: mandateDialog("details"), expected: 404 },
  { name: "mandate edit, another member", file: "routes/member/mandates.tsx", method: "GET", role: "freemium", url: mandateDialog("modifier"), expected: 404 },
  { name: "mandate delete dialog, another member", file: "routes/member/mandates.tsx", method: "GET", role: "founding", url: mandateDialog("supprimer"), expected: 404 },
  { name: "mandate matching panel, another member", file: "routes/member/mandates.tsx", method: "GET", role: "founding", url: mandateDialog("matching"), expected: 404 },
  { name: "mandate matching panel, admin (not the owner)", file: "routes/member/mandates.tsx", method: "GET", role: "admin2fa", url: mandateDialog("matching"), expected: 404 },
  {
    name: "mandate status toggle, another member",
    file: "routes/member/mandates.tsx",
    method: "POST",
    role: "founding",
    url: () => ({ url: "/mandates", params: {} }),
    fields: { intent: "toggle-status", mandateId: "{mandate}" },
    expected: 404,
  },
  {
    name: "mandate delete, another member",
    file: "routes/member/mandates.tsx",
    method: "POST",
    role: "freemium",
    url: () => ({ url: "/mandates", params: {} }),
    fields: { intent: "delete", mandateId: "{mandate}" },
    expected: 404,
  },
  {
    name: "mandate back to active search, another member",
    file: "routes/member/mandates.tsx",
    method: "POST",
    role: "founding",
    url: () => ({ url: "/mandates", params: {} }),
    fields: { intent: "resume-search", mandateId: "{mandate}" },
    expected: 404,
  },
  // The file's mandate and deal commands (issue 13): a third member, an admin: 404.
  ...(["freemium", "admin2fa"] as const).flatMap((role) =>
    ["negotiate", "resume-search", "conclude-mandate", "propose-deal"].map(
      (intent): OwnershipCase => ({
        name: `file command ${intent}, ${role} (not a member of the file)`,
        file: "routes/member/dashboard/file/overview.tsx",
        method: "POST",
        role,
        url: (f) => ({ url: `/dashboard/dossiers/${f.fileId}`, params: { fileId: f.fileId } }),
        fields: { intent },
        expected: 404,
      }),
    ),
  ),
  // The agreement's commands (issue 13): a third member, an admin: 404, whatever the form.
  ...(["freemium", "admin2fa"] as const).flatMap((role) =>
    ["create", "sign"].map(
      (intent): OwnershipCase => ({
        name: `agreement ${intent}, ${role} (not a member of the file)`,
        file: "routes/member/dashboard/file/agreement.tsx",
        method: "POST",
        role,
        url: (f) => ({ url: `/dashboard/dossiers/${f.fileId}/convention`, params: { fileId: f.fileId } }),
        fields: { intent, operationType: "titres", myShare: "50", theirShare: "50", payer: "me", dueTerm: "deed", consent: "on", password: "x" },
        expected: 404,
      }),
    ),
  ),
  { name: "mandate matching panel, owner", file: "routes/member/mandates.tsx", method: "GET", role: "premium", url: mandateDialog("matching"), expected: 200 },
  // Connection request founding → premium: only the target mandate's owner answers it.
  ...(["founding", "freemium", "admin2fa"] as const).map(
    (role): OwnershipCase => ({
      name: `connection request answer by ${role === "founding" ? "its requester" : `another member (${role})`}`,
      file: "routes/member/mandates.tsx",
      method: "POST",
      role,
      url: () => ({ url: "/mandates", params: {} }),
      fields: { intent: "accept", requestId: "{request}" },
      expected: 404,
    }),
  ),
  // Messages: the premium member's conversation with the founding member (who sent them a message).
  { name: "conversation, a member of it", file: CONVERSATION, method: "GET", role: "premium", url: conversationUrl, expected: 200 },
  { name: "conversation, another member", file: CONVERSATION, method: "GET", role: "freemium", url: conversationUrl, expected: 404 },
  {
    name: "conversation, the other member under their own name",
    file: CONVERSATION,
    method: "GET",
    role: "founding",
    url: (f) => ({ url: `/dashboard/messages/confrere-${f.members.premium.profile.id}`, params: { conversationId: `confrere-${f.members.premium.profile.id}` } }),
    expected: 200,
  },
  // The inbox's old links lead the message's two members to their conversation, nobody else.
  { name: "old inbox link, recipient", file: CONVERSATION, method: "GET", role: "premium", url: messageUrl, expected: "redirect:/dashboard/messages/confrere-*" },
  { name: "old inbox link, another member", file: CONVERSATION, method: "GET", role: "freemium", url: messageUrl, expected: 404 },
  { name: "old inbox link, admin", file: CONVERSATION, method: "GET", role: "admin2fa", url: messageUrl, expected: 404 },
  {
    name: "conversation reply, another member",
    file: CONVERSATION,
    method: "POST",
    role: "freemium",
    url: conversationUrl,
    fields: { intent: "reply", message: "Bonjour, je me permets de répondre." },
    expected: 404,
  },
  {
    name: "conversation reply under one's own name",
    file: CONVERSATION,
    method: "POST",
    role: "founding",
    url: conversationUrl,
    fields: { intent: "reply", message: "Bonjour, je me permets de répondre." },
    expected: 404,
  },
  { name: "conversation mark-read, another member", file: CONVERSATION, method: "POST", role: "admin2fa", url: conversationUrl, fields: { intent: "mark-read" }, expected: 404 },
  // A file's thread in « Messages »: the file's two members only (premium and founding).
  { name: "file conversation, a member of the file", file: CONVERSATION, method: "GET", role: "founding", url: fileConversationUrl, expected: 200 },
  { name: "file conversation, another member", file: CONVERSATION, method: "GET", role: "freemium", url: fileConversationUrl, expected: 404 },
  { name: "file conversation, admin", file: CONVERSATION, method: "GET", role: "admin2fa", url: fileConversationUrl, expected: 404 },
  {
    name: "file conversation reply, another member",
    file: CONVERSATION,
    method: "POST",
    role: "freemium",
    url: fileConversationUrl,
    fields: { intent: "reply", message: "Intrusion" },
    expected: 404,
  },
  { name: "file conversation mark-read, another member", file: CONVERSATION, method: "POST", role: "freemium", url: fileConversationUrl, fields: { intent: "mark-read" }, expected: 404 },
  // Public profile pages: only validated profiles are public.
  { name: "public profile of an applicant", file: "routes/public/consultant.tsx", method: "GET", role: "anonymous", url: slugUrl("pending"), expected: 404 },
  { name: "public profile of a suspended member", file: "routes/public/consultant.tsx", method: "GET", role: "anonymous", url: slugUrl("suspended"), expected: 404 },
  // Reporting a rating from a profile (issue 14 §3): validated members only; a rating that is not
  // one of this profile's visible ratings is a 404.
  ...(["anonymous", "pending", "freemium"] as const).map(
    (role): OwnershipCase => ({
      name: `rating report from a profile, ${role}`,
      file: "routes/public/consultant.tsx",
      method: "POST",
      role,
      url: slugUrl("premium"),
      fields: { intent: "report", ratingId: "00000000-0000-4000-8000-000000000000", reason: "Propos déplacés" },
      expected: role === "anonymous" ? 401 : role === "pending" ? 403 : 404,
    }),
  ),
  // Local checkout sessions: the freemium member's own session.
  { name: "test checkout, owner", file: "routes/member/test-checkout.tsx", method: "GET", role: "freemium", url: checkoutUrl, expected: 200 },
  { name: "test checkout, another member", file: "routes/member/test-checkout.tsx", method: "GET", role: "premium", url: checkoutUrl, expected: 404 },
  {
    name: "test checkout completion, another member",
    file: "routes/member/test-checkout.tsx",
    method: "POST",
    role: "admin",
    url: checkoutUrl,
    fields: { intent: "pay" },
    expected: 404,
  },
];

// ---- machinery ---------------------------------------------------------------------------------

type RouteNode = { path?: string; index?: boolean; file: string; children?: RouteNode[] };

function flatten(nodes: RouteNode[], parent = ""): { path: string; file: string }[] {
  const out: { path: string; file: string }[] = [];
  for (const n of nodes) {
    const path = n.index ? parent || "/" : `${parent === "/" ? "" : parent}/${n.path ?? ""}`.replace(/\/+$/, "") || "/";
    out.push({ path, file: n.file });
    if (n.children) out.push(...flatten(n.children, path));
  }
  return out;
}

type Handler = (args: { request: Request; params: Record<string, string>; context: { requestId: string; nonce: string } }) => unknown;
type RouteModule = { loader?: Handler; action?: Handler };

const modules = import.meta.glob<RouteModule>("../../app/routes/**/*.{ts,tsx}");

async function loadModule(file: string): Promise<RouteModule> {
  const load = modules[`../../app/${file}`];
  if (!load) throw new Error(`route module not found: ${file}`);
  return load();
}

function isDataWithInit(v: unknown): v is { type: "DataWithResponseInit"; init: ResponseInit | null } {
  return typeof v === "object" && v !== null && (v as { type?: unknown }).type === "DataWithResponseInit";
}

function describeOutcome(v: unknown): Expected | string {
  if (v instanceof Response) {
    if (v.status >= 300 && v.status < 400) return `redirect:${v.headers.get("location") ?? "?"}`;
    return v.status;
  }
  if (isDataWithInit(v)) {
    const status = v.init?.status ?? 200;
    const location = new Headers(v.init?.headers).get("location");
    return location && status >= 300 && status < 400 ? `redirect:${location}` : status;
  }
  return 200;
}

const IPS: Record<Role, string> = Object.fromEntries(ROLES.map((r, i) => [r, `203.0.113.${20 + i}`])) as Record<Role, string>;

function cookieHeader(setCookies: string[]): string {
  return setCookies.map((c) => c.split(";")[0].trim()).join("; ");
}

async function sessionCookie(m: CreatedMember, ip: string): Promise<string> {
  const { headers } = await getAuth().api.signInEmail({
    body: { email: m.email, password: m.password },
    headers: new Headers({ "x-rt-client-ip": ip }),
    returnHeaders: true,
  });
  return cookieHeader(headers.getSetCookie());
}

async function run(
  handler: Handler | undefined,
  method: "GET" | "POST",
  target: { url: string; params: Record<string, string> },
  cookie: string | null,
  ip: string,
  fields: Record<string, string> = {},
): Promise<Expected | string> {
  const headers = new Headers({ "x-rt-client-ip": ip, origin: "http://localhost:3000" });
  if (cookie) headers.set("cookie", cookie);
  const init: RequestInit = { method, headers };
  if (method === "POST") init.body = new URLSearchParams(fields);
  const request = new Request(`http://localhost:3000${target.url}`, init);
  if (!handler) return method === "GET" ? 200 : 405;
  try {
    const outcome = await handler({ request, params: target.params, context: { requestId: "matrix", nonce: "" } });
    // A streamed file must also reach its end: read the body (a stream that fails is an error);
    // a live event stream never ends, so it is closed unread.
    if (outcome instanceof Response && outcome.body) {
      if (outcome.headers.get("content-type")?.startsWith("text/event-stream")) await outcome.body.cancel();
      else await outcome.arrayBuffer();
    }
    return describeOutcome(outcome);
  } catch (thrown) {
    if (thrown instanceof Response || isDataWithInit(thrown)) return describeOutcome(thrown);
    return `error: ${thrown instanceof Error ? thrown.message : String(thrown)}`;
  }
}

// ---- fixtures ----------------------------------------------------------------------------------

let f: Fixtures;

async function paidInvoiceOf(db: NonNullable<typeof t.db>, profileId: string): Promise<string> {
  const [payment] = await db
    .insert(payments)
    .values({ profileId, provider: "local", checkoutSessionId: "local_matrix", status: "paid", amountCents: 25_000, paidAt: new Date() })
    .returning({ id: payments.id });
  const issued = await db.transaction((tx) => issueInvoiceForPayment(tx, payment.id));
  return issued!.id;
}
const cookies = {} as Record<Role, string | null>;

beforeAll(async () => {
  seedFactories(808);
  const db = t.db!;
  const validated = { profileStatus: "validated" as const };
  const noProfile = await createMember(db, { email: "sans-profil@exemple.fr" });
  await db.delete(profiles).where(eq(profiles.id, noProfile.profile.id));
  const members: Fixtures["members"] = {
    noProfile,
    pending: await createApplicant(db, { email: "candidat@exemple.fr" }),
    freemium: await createMember(db, { email: "freemium@exemple.fr", profile: { ...validated, membershipType: "freemium" } }),
    premium: await createMember(db, { email: "premium@exemple.fr", profile: { ...validated, membershipType: "premium" } }),
    founding: await createMember(db, { email: "fondateur@exemple.fr", profile: { ...validated, membershipType: "founding_member" } }),
    suspended: await createMember(db, {
      email: "suspendu@exemple.fr",
      profile: { ...validated, membershipType: "premium", profileStatus: "suspended", suspendedAt: new Date() },
    }),
    admin: await createMember(db, { email: "admin@exemple.fr", admin: true, profile: { ...validated, membershipType: "freemium" } }),
    admin2fa: await createMember(db, { email: "admin2fa@exemple.fr", admin: true, profile: { ...validated, membershipType: "freemium" } }),
  };
  const premiumMessage = await createMessage(db, members.premium.profile.id, { senderId: members.founding.profile.id });
  const premiumMandate = await createMandate(db, members.premium.profile.id);
  const foundingMandate = await createMandate(db, members.founding.profile.id);
  const [request] = await db
    .insert(mandateMatchRequests)
    .values({ requesterMandateId: foundingMandate.id, targetMandateId: premiumMandate.id, requesterProfileId: members.founding.profile.id })
    .returning({ id: mandateMatchRequests.id });
  const [file] = await db
    .insert(collaborationFiles)
    .values({
      reference: "DR-2026-9001",
      pairKey: `${foundingMandate.id}:${premiumMandate.id}`,
      mandateAId: foundingMandate.id,
      mandateBId: premiumMandate.id,
      memberAId: members.founding.profile.id,
      memberBId: members.premium.profile.id,
      mandateALabel: "Mandat cédant « F-1 »",
      mandateBLabel: "Mandat acquéreur « P-1 »",
    })
    .returning({ id: collaborationFiles.id });
  // Its bytes in the database driver (on both test databases): nothing written to the disk.
  setStorage(createDatabaseStorage());
  const documentKey = `documents/${file.id}/matrix.png`;
  const documentBytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  await createDatabaseStorage().putObject(documentKey, documentBytes, "image/png");
  const [document] = await db
    .insert(collaborationDocuments)
    .values({
      fileId: file.id,
      uploaderProfileId: members.founding.profile.id,
      name: "plan.png",
      contentType: "image/png",
      sizeBytes: 8,
      sha256: sha256Hex(documentBytes),
      storageKey: documentKey,
    })
    .returning({ id: collaborationDocuments.id });
  // The applicant's insurance certificate (createApplicant wrote its evidence row).
  // Served files are checked against their recorded SHA-256: the rows record the seeded bytes'.
  const seedPdf = Buffer.from("%PDF-1.7\n%%EOF\n");
  await createDatabaseStorage().putObject(`documents/verification/${members.pending.profile.id}/seed.pdf`, seedPdf, "application/pdf");
  await db.update(verificationEvidence).set({ insuranceSha256: sha256Hex(seedPdf) }).where(eq(verificationEvidence.profileId, members.pending.profile.id));
  const agreementKey = `documents/${file.id}/agreement-v-matrix.pdf`;
  await createDatabaseStorage().putObject(agreementKey, seedPdf, "application/pdf");
  const [agreement] = await db
    .insert(feeAgreements)
    .values({
      fileId: file.id,
      version: 1,
      terms: {
        operationType: "titres",
        dueTerm: "deed",
        payerSide: "a",
        createdBySide: "a",
        clauses: null,
        parties: [
          { side: "a", name: "Fondateur", company: null, profession: null, mandateLabel: "Mandat cédant « F-1 »", share: 50 },
          { side: "b", name: "Premium", company: null, profession: null, mandateLabel: "Mandat acquéreur « P-1 »", share: 50 },
        ],
      },
      createdBy: members.founding.profile.id,
      documentKey: agreementKey,
      documentSha256: sha256Hex(seedPdf),
    })
    .returning({ id: feeAgreements.id });
  const [ddRequest] = await db
    .insert(dueDiligenceRequests)
    .values({ fileId: file.id, category: "juridique", title: "Statuts à jour", position: 1 })
    .returning({ id: dueDiligenceRequests.id });
  const [mediation] = await db
    .insert(mediations)
    .values({
      fileId: file.id,
      openedBy: members.founding.profile.id,
      openedByName: "Fondateur",
      respondentId: members.premium.profile.id,
      respondentName: "Premium",
      subject: "Objet de la médiation",
      facts: "Exposé des faits de la médiation du tableau.",
    })
    .returning({ id: mediations.id });
  const attachmentKey = `documents/${file.id}/mediation/matrix.pdf`;
  await createDatabaseStorage().putObject(attachmentKey, seedPdf, "application/pdf");
  const [attachment] = await db
    .insert(mediationAttachments)
    .values({
      mediationId: mediation.id,
      uploaderProfileId: members.founding.profile.id,
      name: "piece.pdf",
      contentType: "application/pdf",
      sizeBytes: 15,
      sha256: sha256Hex(seedPdf),
      storageKey: attachmentKey,
    })
    .returning({ id: mediationAttachments.id });
  f = {
    members,
    premiumMessage,
    premiumMandate,
    matchRequestId: request.id,
    checkoutSessionId: "",
    fileId: file.id,
    documentId: document.id,
    agreementId: agreement.id,
    requestId: ddRequest.id,
    mediationId: mediation.id,
    attachmentId: attachment.id,
    invoiceId: await paidInvoiceOf(db, members.founding.profile.id),
  };

  cookies.anonymous = null;
  for (const role of ROLES) {
    if (role !== "anonymous") cookies[role] = await sessionCookie(members[role], IPS[role]);
  }
  // Enabled after sign-in (better-auth would otherwise ask for the TOTP code); the session reads
  // the user row on each request.
  await db.update(user).set({ twoFactorEnabled: true }).where(eq(user.id, members.admin2fa.user.id));
});

afterAll(() => setStorage(undefined));

// ---- tests -------------------------------------------------------------------------------------

const PROBE = process.env.MATRIX_PROBE === "1";

describe("authorization matrix", () => {
  const flat = flatten(routeConfig as unknown as RouteNode[]);

  it("covers every route of app/routes.ts, and only those", () => {
    const key = (r: { path: string; file: string }) => `${r.path}  ${r.file}`;
    const inTable = new Set(TABLE.map(key));
    const missing = flat.filter((r) => !inTable.has(key(r))).map(key);
    const routeKeys = new Set(flat.map(key));
    const stale = TABLE.filter((e) => !routeKeys.has(key(e))).map(key);
    if (!PROBE) {
      expect(missing, "routes missing from the authorization matrix").toEqual([]);
      expect(stale, "matrix rows without a route").toEqual([]);
    }
  });

  // The first test to import every route module: as long as the next one's on a busy machine.
  it("has a POST row exactly for the routes whose module exports an action", { timeout: MATRIX_TIMEOUT_MS }, async () => {
    for (const r of flat) {
      const mod = await loadModule(r.file);
      const entry = TABLE.find((e) => e.file === r.file && e.path === r.path);
      if (!entry || PROBE) continue;
      expect(Boolean(entry.post), `${r.path} (${r.file}) POST row vs exported action`).toBe(Boolean(mod.action));
    }
  });

  it("every cell has its expected outcome", { timeout: MATRIX_TIMEOUT_MS }, async () => {
    const skipped: string[] = [];
    const failures: string[] = [];
    const probe: string[] = [];
    for (const r of flat) {
      const entry = TABLE.find((e) => e.file === r.file && e.path === r.path);
      const mod = await loadModule(r.file);
      const target = entry?.url ? entry.url(f) : { url: r.path, params: {} };
      const observed: Partial<Record<"get" | "post", Record<string, Expected | string>>> = {};
      for (const method of ["GET", "POST"] as const) {
        if (method === "POST" && !mod.action) continue;
        const row = method === "GET" ? entry?.get : entry?.post;
        const handler = method === "GET" ? mod.loader : mod.action;
        const seen: Record<string, Expected | string> = {};
        for (const role of ROLES) {
          const expected = row?.[role];
          if (!PROBE && typeof expected === "string" && expected.startsWith("skip:")) {
            skipped.push(`${method} ${r.path} as ${role}: ${expected}`);
            continue;
          }
          let cookie = cookies[role];
          if (entry?.freshSession && role !== "anonymous") cookie = await sessionCookie(f.members[role], IPS[role]);
          const actual = await run(handler, method, target, cookie, IPS[role]);
          seen[role] = actual;
          if (!PROBE && expected !== undefined && !matches(expected, actual)) {
            failures.push(`${method} ${target.url} as ${role}: expected ${expected}, got ${actual}`);
          }
        }
        observed[method === "GET" ? "get" : "post"] = seen;
      }
      if (PROBE) probe.push(`${r.path}  ${r.file}\n  get: ${JSON.stringify(observed.get)}\n  post: ${JSON.stringify(observed.post ?? null)}`);
    }
    // A local checkout session of the freemium member (the premium page's action starts it; a
    // new one replaces the previous, so it is started here, after the matrix rows).
    const premiumModule = await loadModule("routes/member/premium.tsx");
    const started = await run(premiumModule.action, "POST", { url: "/premium", params: {} }, cookies.freemium, IPS.freemium);
    f.checkoutSessionId = String(started).split("/paiement-test/")[1] ?? "";
    if (!f.checkoutSessionId) failures.push(`no checkout session: ${started}`);
    for (const c of OWNERSHIP) {
      const mod = await loadModule(c.file);
      const target = c.url(f);
      const fields = Object.fromEntries(
        Object.entries(c.fields ?? {}).map(([k, v]) => [k, v === "{mandate}" ? f.premiumMandate.id : v === "{request}" ? f.matchRequestId : v]),
      );
      const actual = await run(c.method === "GET" ? mod.loader : mod.action, c.method, target, cookies[c.role], IPS[c.role], fields);
      if (PROBE) probe.push(`ownership ${c.name}: ${actual}`);
      else if (typeof c.expected === "string" && c.expected.startsWith("skip:")) skipped.push(`${c.name}: ${c.expected}`);
      else if (!matches(c.expected, actual)) failures.push(`${c.name}: expected ${c.expected}, got ${actual}`);
    }
    if (PROBE) console.log(probe.join("\n"));
    if (skipped.length) console.log(`authorization matrix: ${skipped.length} skipped cell(s)\n${skipped.join("\n")}`);
    expect(failures).toEqual([]);
  });

  it("another member's mark-read leaves the recipient's conversation unread", async () => {
    await t.db!.delete(messageReads).where(eq(messageReads.messageId, f.premiumMessage.id));
    const mod = await loadModule(CONVERSATION);
    for (const [role, url] of [["founding", conversationUrl(f)], ["freemium", messageUrl(f)]] as const) {
      await run(mod.action, "POST", url, cookies[role], IPS[role], { intent: "mark-read" });
    }
    expect(await t.db!.select().from(messageReads).where(eq(messageReads.messageId, f.premiumMessage.id))).toHaveLength(0);
    // The recipient's own mark-read does read it.
    await run(mod.action, "POST", conversationUrl(f), cookies.premium, IPS.premium, { intent: "mark-read" });
    expect(await t.db!.select().from(messageReads).where(eq(messageReads.messageId, f.premiumMessage.id))).toHaveLength(1);
  });

  it("refused answers left the connection request pending; its target's owner answers it", async () => {
    const status = async () =>
      (await t.db!.select({ s: mandateMatchRequests.status }).from(mandateMatchRequests).where(eq(mandateMatchRequests.id, f.matchRequestId)))[0].s;
    expect(await status()).toBe("pending");
    const mod = await loadModule("routes/member/mandates.tsx");
    const out = await run(mod.action, "POST", { url: "/mandates", params: {} }, cookies.premium, IPS.premium, {
      intent: "reject",
      requestId: f.matchRequestId,
    });
    expect(String(out)).toMatch(/^redirect:/);
    expect(await status()).toBe("rejected");
  });
});
