// THE URL map, explicit, in the order of the spec's route list (§2), then the routes the
// self-hosted product needs (auth API, password reset, sign-out, health, dev mailbox).
import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

export default [
  index("routes/public/landing.tsx"),
  route("annuaire", "routes/public/annuaire.tsx"),
  route("consultant/:slug", "routes/public/consultant.tsx"),
  route("auth", "routes/public/auth.tsx"),
  route("join-founder", "routes/public/join-founder.tsx"),
  // The application's frame (top bar, the member space's or the back office's navigation, one
  // account menu) around every signed-in page, onboarding included; it guards nothing itself.
  layout("routes/member/shell.tsx", [
    route("onboarding", "routes/member/onboarding.tsx"),
    route("dashboard", "routes/member/dashboard/layout.tsx", [
      index("routes/member/dashboard/overview.tsx"),
      route("messages", "routes/member/dashboard/messages.tsx"),
      // One conversation: a peer, a file's thread or a visitor's message; the old
      // inbox links (a bare message id) redirect to theirs.
      route("messages/:conversationId", "routes/member/dashboard/conversation.tsx"),
      route("annuaire", "routes/member/dashboard/directory.tsx"),
      route("profil", "routes/member/dashboard/profile.tsx"),
      route("mandats", "routes/member/dashboard/mandates.tsx"),
      route("stats", "routes/member/dashboard/stats.tsx"),
      // The notification centre: the full list behind the bell.
      route("notifications", "routes/member/dashboard/notifications.tsx"),
      // Collaboration files of confirmed connections: the list, and each file's pages
      // under its layout (header, sections).
      route("dossiers", "routes/member/dashboard/files.tsx"),
      route("dossiers/:fileId", "routes/member/dashboard/file/layout.tsx", [
        index("routes/member/dashboard/file/overview.tsx"),
        route("documents", "routes/member/dashboard/file/documents.tsx"),
        route("documents/:documentId", "routes/member/dashboard/file/document.ts"),
        route("convention", "routes/member/dashboard/file/agreement.tsx"),
        route("convention/apercu", "routes/member/dashboard/file/agreement-preview.ts"),
        route("convention/:agreementId", "routes/member/dashboard/file/agreement-pdf.ts"),
        route("historique", "routes/member/dashboard/file/evidence.ts"),
        // The due-diligence list, its exports and each request with its Q&A.
        route("diligences", "routes/member/dashboard/file/due-diligence.tsx"),
        route("diligences/export", "routes/member/dashboard/file/due-diligence-export.ts"),
        route("diligences/:requestId", "routes/member/dashboard/file/due-diligence-item.tsx"),
        route("engagements", "routes/member/dashboard/file/undertakings.ts"),
        route("archive", "routes/member/dashboard/file/archive.ts"),
        route("mediation", "routes/member/dashboard/file/mediation.tsx"),
        // Participants and folders.
        route("intervenants", "routes/member/dashboard/file/participants.tsx"),
        // Ratings once the file ended.
        route("evaluation", "routes/member/dashboard/file/evaluation.tsx"),
      ]),
    ]),
    route("premium", "routes/member/premium.tsx"),
    route("admin", "routes/admin/layout.tsx", [
      index("routes/admin/profiles.tsx"),
      route("deals", "routes/admin/deals.tsx"),
      route("recommandations", "routes/admin/recommendations.tsx"),
      route("recommandations/export.csv", "routes/admin/recommendations-csv.ts"),
      route("recommandations/emails", "routes/admin/recommendations-emails.ts"),
      route("mediations", "routes/admin/mediations.tsx"),
      route("mediations/:mediationId", "routes/admin/mediation.tsx"),
      route("evaluations", "routes/admin/ratings.tsx"),
      route("journal", "routes/admin/journal.tsx"),
    ]),
    route("mandates", "routes/member/mandates.tsx"),
    // The account settings: one page per subject under one navigation.
    route("parametres", "routes/member/settings.tsx", [
      index("routes/member/settings/account.tsx"),
      route("securite", "routes/member/settings/security.tsx"),
      route("notifications", "routes/member/settings/notifications.tsx"),
      // A validated member files or renews the insurance certificate (checked by the team).
      route("assurance", "routes/member/insurance-renewal.tsx"),
      // Plan, payments, invoices and credit notes, billing details.
      route("facturation", "routes/member/billing.tsx"),
      route("donnees", "routes/member/settings/data.tsx"),
    ]),
  ]),
  // A file's invitation, and the files a participant or guest account was admitted to.
  route("invitation/:token", "routes/public/invitation.tsx"),
  route("dossiers-partages", "routes/shared/files.tsx"),
  route("dossiers-partages/:fileId", "routes/shared/file.tsx"),
  route("dossiers-partages/:fileId/documents/:documentId", "routes/shared/document.ts"),
  route("dossiers-partages/:fileId/diligences", "routes/shared/due-diligence.tsx"),
  route("dossiers-partages/:fileId/diligences/:requestId", "routes/shared/due-diligence-item.tsx"),
  route("dossiers-partages/:fileId/archive", "routes/shared/archive.ts"),
  route("confirm-recommendation", "routes/public/confirm-recommendation.tsx"),
  route("concept", "routes/public/concept.tsx"),
  route("tiers-confiance", "routes/public/tiers-confiance.tsx"),
  route("mentions-legales", "routes/public/mentions-legales.tsx"),
  route("cgu", "routes/public/cgu.tsx"),
  route("politique-confidentialite", "routes/public/politique-confidentialite.tsx"),
  route("contact", "routes/public/contact.tsx"),
  route("faq", "routes/public/faq.tsx"),
  route("support", "routes/public/support.tsx"),
  route("aide", "routes/public/aide.tsx"),
  route("cookies", "routes/public/cookies.tsx"),

  // Account: settings (with the data export download), password reset, sign-out and the
  // unsubscribe links of notification e-mails.
  route("parametres/export", "routes/member/settings-export.ts"),
  // An invoice or credit note of the member, as PDF (404 for anyone else's).
  route("parametres/facturation/:invoiceId", "routes/member/invoice-pdf.ts"),
  // A member's insurance certificate (verification evidence): the member and admins only.
  route("justificatifs/:profileId/assurance", "routes/member/insurance-certificate.ts"),
  // A document joined to a mediation: the member who joined it and admins only.
  route("mediations/pieces/:attachmentId", "routes/member/mediation-attachment.ts"),
  route("desabonnement", "routes/public/unsubscribe.tsx"),
  route("auth/mot-de-passe-oublie", "routes/public/forgot-password.tsx"),
  route("auth/nouveau-mot-de-passe", "routes/public/reset-password.tsx"),
  route("logout", "routes/api/logout.ts"),

  // Machine endpoints.
  route("api/auth/*", "routes/api/auth.ts"),
  route("healthz", "routes/api/healthz.ts"),
  route("readyz", "routes/api/readyz.ts"),
  route("sitemap.xml", "routes/api/sitemap.ts"),
  route("robots.txt", "routes/api/robots.ts"),
  // Installable on a phone: the web app manifest; the service worker is public/sw.js.
  route("manifest.webmanifest", "routes/api/manifest.ts"),
  // Profile images: upload (premium members) and the stored files.
  route("api/uploads", "routes/api/upload.ts"),
  route("uploads/*", "routes/api/uploads-file.ts"),
  // Live notifications: one event stream per tab, and the JSON state for the polling fallback.
  route("api/notifications", "routes/api/notifications.ts"),
  route("api/notifications/stream", "routes/api/notifications-stream.ts"),

  // Built-in mailbox when no SMTP server is configured (404 otherwise).
  route("dev/mailbox", "routes/dev/mailbox.tsx"),
  route("dev/mailbox.json", "routes/dev/mailbox-json.ts"),
  route("dev/mailbox/:id", "routes/dev/mailbox-message.tsx"),
  route("dev/caches", "routes/dev/caches.tsx"),
  // The design system's components in every state (development only, 404 otherwise).
  route("dev/style", "routes/dev/style.tsx"),

  // Payments: provider webhook, and the local test checkout when Stripe is not configured (404 otherwise).
  route("api/webhooks/stripe", "routes/api/stripe-webhook.ts"),
  route("paiement-test/:sessionId", "routes/member/test-checkout.tsx"),

  route("*", "routes/public/not-found.tsx"),
] satisfies RouteConfig;
