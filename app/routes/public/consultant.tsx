import { lazy, Suspense } from "react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Briefcase, Building2, ExternalLink, Handshake, MapPin } from "lucide-react";
import { data, isRouteErrorResponse, Link, redirect } from "react-router";
import { getProfileByUserId, getSessionUser, requireMember } from "~/auth/session.server";
import { Avatar } from "~/components/avatar";
import { PageContainer } from "~/components/page";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardSection as Section } from "~/components/ui/card";
import { closingsCountLine } from "~/features/collaboration/collaboration-rules";
import { profileBadges } from "~/features/trust/badges";
import { ProfileBadges } from "~/features/directory/components/profile-badges";
import { VerifiedMark } from "~/features/trust/components/verified-mark";
import type { RatingActionResult } from "~/features/trust/components/rating-forms";
import { reportSchema } from "~/features/trust/ratings.schema";
import { getMemberRatings, reportRating } from "~/features/trust/ratings.server";
import { RATING_MESSAGES } from "~/features/trust/reputation-rules";
import { atEdge, expectedMessage, expectedStatus } from "~/lib/errors/http";
import { firstFormError } from "~/lib/form-errors";
import { redirectWithToast } from "~/lib/toast.server";
import { publicProfileLabels } from "~/features/directory/labels.server";
import { Paragraphs, RatingsSummary } from "~/features/profiles/components/profile-sections";
import { personJsonLd, profileMetaTags, profileSeo, sectorNameOf } from "~/features/profiles/public-profile-seo";
import { ContactDialog, type ContactActionData } from "~/features/messages/components/contact-dialog";
import { publicContactSchema } from "~/features/messages/messages.schema";
import { createMessage } from "~/features/messages/messages.server";
import { getPublicProfile, type PublicProfile } from "~/features/profiles/public-profile.server";
import { withReadReplica } from "~/db/read-replica.server";
import { isDatabaseUnavailable } from "~/lib/availability.server";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { consumeRateLimit, getClientIp, RATE_LIMITS } from "~/lib/rate-limit.server";
import { serializeJsonLd } from "~/lib/seo";
import { profileIdFromSlug } from "~/lib/slug";
import type { Route } from "./+types/consultant";
import { readForm } from "~/lib/form.server";

// What only members see on a profile (their responsiveness, the ratings with the report form) is
// fetched when shown: a visitor's page does not load it (public pages' JavaScript budget).
const ResponsivenessSummary = lazy(() => import("~/features/trust/components/responsiveness").then((m) => ({ default: m.ResponsivenessSummary })));
const MemberRatingsSection = lazy(() =>
  import("~/features/profiles/components/member-ratings-section").then((m) => ({ default: m.MemberRatingsSection })),
);

/**
 * The validated profile behind a slug; 404 when unknown, malformed or not public. Read through the
 * read replica when there is one and the request allows it (a GET from a browser that did not just
 * write public content).
 */
async function loadProfile(request: Request, slug: string) {
  const id = profileIdFromSlug(slug);
  let profile = null;
  try {
    profile = id ? await withReadReplica(request, (handle) => getPublicProfile(id, handle)) : null;
  } catch (error) {
    // No database at all: a 503 (entry.server), never a 404 that would tell crawlers it is gone.
    if (isDatabaseUnavailable(error)) throw error;
    // The spec shows the not-found page when loading fails too.
    logger.error({ err: error, slug }, "public profile load failed");
  }
  if (!profile) throw data({ message: "Profil non trouvé" }, { status: 404 });
  return profile;
}

export const loader = atEdge(async function loader({ params, request }: Route.LoaderArgs) {
  const profile = await loadProfile(request, params.slug);
  // An outdated name part (the member renamed) redirects to the current slug.
  if (profile.slug !== params.slug) throw redirect(`/consultant/${profile.slug}`, 301);
  const viewer = await getSessionUser(request);
  // Labels, badges, meta texts and the JSON-LD resolved here: the page's bundle carries neither
  // the reference tables nor the builders.
  const labels = publicProfileLabels(profile);
  const badges = [
    ...profileBadges({
      membershipType: profile.membershipType,
      certifiedDealsCount: profile.certifiedDeals.length,
      sectorsCount: profile.specializationSectors.length,
    }),
    ...profile.reputationBadges,
  ];
  // Members of the network see the ratings (average, count, comments and answers); anonymous
  // visitors only the average and count the member consented to show (profile.ratings).
  const viewerProfile = viewer ? await getProfileByUserId(viewer.id) : null;
  const memberRatings = viewerProfile?.profileStatus === "validated" ? await getMemberRatings(profile.id) : null;
  const env = getEnv();
  const origin = env.APP_URL;
  const jsonLd = serializeJsonLd(personJsonLd(profile, labels, origin));
  return {
    profile,
    labels,
    badges,
    // « N rapprochements conclus via le réseau », null at 0 (nothing shown).
    closingsLine: closingsCountLine(profile.closingsCount),
    // The meta tags are built here: the page's JavaScript does not carry their code (budget).
    metaTags: profileMetaTags(profile, { profession: labels.profession, ...profileSeo(profile, labels), origin, appName: env.APP_NAME }),
    jsonLd,
    viewerEmail: viewer?.email ?? null,
    memberRatings,
  };
});

export const action = atEdge(async function action({ params, request }: Route.ActionArgs) {
  // Public action: anyone may contact a professional; abuse is limited per IP and by a honeypot.
  const profile = await loadProfile(request, params.slug);
  const formData = await readForm(request);
  if (formData.get("intent") === "report") return reportAction(request, profile, formData);
  const submission = parseWithZod(formData, { schema: publicContactSchema });
  if (submission.status !== "success") {
    const honeypot = typeof formData.get("website") === "string" && formData.get("website") !== "";
    // Bots filling the hidden field get a success and nothing is stored.
    if (honeypot) return { ok: true } satisfies ContactActionData;
    const first = firstFormError(submission.error, "Veuillez remplir tous les champs");
    return data({ ok: false, error: first } satisfies ContactActionData, { status: 400 });
  }
  const limit = await consumeRateLimit(`contact-profile:ip:${getClientIp(request)}`, RATE_LIMITS.contactIp);
  if (!limit.allowed) {
    return data(
      { ok: false, error: "Trop de messages envoyés. Veuillez réessayer plus tard." } satisfies ContactActionData,
      { status: 429, headers: { "retry-after": String(limit.retryAfter) } },
    );
  }
  try {
    const viewer = await getSessionUser(request);
    const senderProfile = viewer ? await getProfileByUserId(viewer.id) : null;
    const v = submission.value;
    const created = await createMessage({
      recipientProfileId: profile.id,
      senderProfileId: senderProfile?.profileStatus === "validated" ? senderProfile.id : null,
      senderName: v.fullName,
      senderEmail: v.email.toLowerCase(),
      subject: v.subject,
      content: v.message,
      messageType: "public_contact",
    });
    if (!created) throw new Error("recipient unavailable");
    return { ok: true } satisfies ContactActionData;
  } catch (error) {
    logger.error({ err: error }, "public contact message failed");
    return data({ ok: false, error: "Erreur lors de l'envoi du message" } satisfies ContactActionData, { status: 500 });
  }
});

/** A validated member reports one of the ratings the profile shows. */
async function reportAction(request: Request, profile: PublicProfile, form: FormData) {
  const { profile: member } = await requireMember(request);
  const ratingId = String(form.get("ratingId") ?? "");
  const fail = (error: string, status: number) => data({ intent: "report", ratingId, error } satisfies RatingActionResult, { status });
  const s = parseWithZod(form, { schema: reportSchema });
  if (s.status !== "success") return fail(firstFormError(s.error), 400);
  try {
    await reportRating({ profileId: member.id }, s.value.ratingId, s.value, { ratedId: profile.id });
  } catch (error) {
    const status = expectedStatus(error);
    if (status === null) throw error;
    return fail(expectedMessage(error, "L’opération n’a pas pu aboutir."), status);
  }
  return redirectWithToast(`/consultant/${profile.slug}`, { type: "success", title: RATING_MESSAGES.reported });
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const appName = (matches.find((m) => m?.id === "root")?.loaderData as { appName?: string } | undefined)?.appName ?? "Réseau Transmission";
  if (!loaderData) return [{ title: `Profil non trouvé — ${appName}` }, { name: "robots", content: "noindex" }];
  return loaderData.metaTags;
};

export default function ConsultantPage({ loaderData, actionData }: Route.ComponentProps) {
  const { profile: p, labels, badges, jsonLd, closingsLine } = loaderData;
  const fullName = `${p.firstName} ${p.lastName}`;
  const cityLine = [p.locationCity, p.locationDepartment ? `${labels.department} (${p.locationDepartment})` : null]
    .filter(Boolean)
    .join(", ");
  const showAddress = p.fullAddress && p.fullAddress.trim() !== "" && p.fullAddress.trim() !== cityLine;
  const premium = p.membershipType !== "freemium";
  const report = actionData && "intent" in actionData ? (actionData as RatingActionResult) : undefined;
  return (
    <PageContainer className="max-w-4xl">
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLd }} />
      <nav aria-label="Fil d’Ariane" className="mb-6 text-sm text-muted-foreground">
        <ol className="flex flex-wrap items-center gap-1">
          <li>
            <Link to="/annuaire" className="hover:underline">
              Annuaire
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li aria-current="page" className="text-foreground">
            {fullName}
          </li>
        </ol>
      </nav>
      <Card className="p-6">
        <div className="flex flex-col gap-6 sm:flex-row sm:items-start">
          <Avatar firstName={p.firstName} lastName={p.lastName} photoUrl={p.photoUrl} size="lg" colourKey={p.id} />
          <div className="min-w-0 flex-1 space-y-2">
            <h1 className="text-3xl font-bold text-primary">{fullName}</h1>
            <p className="flex items-center gap-2 font-medium">
              <Briefcase className="h-4 w-4" aria-hidden="true" />
              {labels.profession}
            </p>
            <p className="flex items-center gap-2 text-muted-foreground">
              <Building2 className="h-4 w-4" aria-hidden="true" />
              {p.company}
            </p>
            {cityLine ? (
              <p className="flex items-center gap-2 text-muted-foreground">
                <MapPin className="h-4 w-4" aria-hidden="true" />
                {cityLine}
              </p>
            ) : null}
            {showAddress ? <p className="text-sm text-muted-foreground">{p.fullAddress}</p> : null}
            <ProfileBadges badges={badges} />
            {p.verification ? <VerifiedMark mark={p.verification} /> : null}
            <RatingsSummary
              ratings={loaderData.memberRatings ? { average: loaderData.memberRatings.average, count: loaderData.memberRatings.count } : p.ratings}
            />
            {loaderData.memberRatings ? (
              <Suspense fallback={null}>
                <ResponsivenessSummary value={loaderData.memberRatings.responsiveness} />
              </Suspense>
            ) : null}
            {closingsLine ? (
              <p className="flex items-center gap-2 text-sm font-medium" data-testid="closings-count">
                <Handshake className="h-4 w-4" aria-hidden="true" />
                {closingsLine}
              </p>
            ) : null}
            <div className="flex flex-wrap items-center gap-3 pt-2">
              <ContactDialog
                professionalName={fullName}
                defaults={loaderData.viewerEmail ? { email: loaderData.viewerEmail } : undefined}
                result={report ? undefined : (actionData as ContactActionData | undefined)}
              />
              {p.linkedinUrl ? (
                <Button asChild variant="outline" size="lg">
                  <a href={p.linkedinUrl} target="_blank" rel="noopener noreferrer nofollow">
                    <ExternalLink aria-hidden="true" />
                    LinkedIn
                  </a>
                </Button>
              ) : null}
            </div>
          </div>
          {premium && p.logoUrl ? (
            <img src={p.logoUrl} alt={`Logo ${p.company}`} className="h-20 w-20 shrink-0 rounded object-contain" width={80} height={80} />
          ) : null}
        </div>
      </Card>

      <div className="mt-6 grid gap-6">
        {p.specializationSectors.length > 0 ? (
          <Section title="Secteurs d'expertise">
            <ul className="flex flex-wrap gap-2">
              {p.specializationSectors.map((code) => (
                <li key={code}>
                  <Badge variant="outline" className="font-normal">
                    {sectorNameOf(labels, code)}
                  </Badge>
                </li>
              ))}
            </ul>
          </Section>
        ) : null}
        {premium && p.detailedPresentation ? (
          <Section title="Présentation">
            <Paragraphs text={p.detailedPresentation} />
          </Section>
        ) : null}
        {p.experienceDescription ? (
          <Section title="Expérience">
            <Paragraphs text={p.experienceDescription} />
          </Section>
        ) : null}
        {p.recentOperations ? (
          <Section title="Opérations récentes">
            <Paragraphs text={p.recentOperations} />
          </Section>
        ) : null}
        {loaderData.memberRatings ? (
          <Suspense fallback={null}>
            <MemberRatingsSection list={loaderData.memberRatings.list} report={report} />
          </Suspense>
        ) : null}
        {p.certifiedDeals.length > 0 ? (
          <Section title="Transactions M&A Certifiées">
            <ul className="divide-y">
              {p.certifiedDeals.map((d) => (
                <li key={d.id} className="py-3">
                  <p className="font-medium">
                    {d.year} · {sectorNameOf(labels, d.sector)}
                  </p>
                  <p className="text-sm">{d.title}</p>
                  {d.dealDescription ? <p className="text-sm text-muted-foreground">{d.dealDescription}</p> : null}
                </li>
              ))}
            </ul>
          </Section>
        ) : null}
      </div>
    </PageContainer>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  // An outage (503, e.g. on a client-side navigation) is not a missing profile: thrown on to the
  // root boundary, « Service momentanément indisponible ».
  if (isRouteErrorResponse(error) && error.status === 503) throw error;
  return (
    <PageContainer className="flex max-w-xl flex-col items-center gap-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">Profil non trouvé</h1>
      <p className="text-muted-foreground">Ce professionnel n'existe pas ou n'est plus disponible.</p>
      <Button asChild>
        <Link to="/annuaire">Retour à l’annuaire</Link>
      </Button>
    </PageContainer>
  );
}
