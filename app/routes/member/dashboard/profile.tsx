import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, isRouteErrorResponse, Link } from "react-router";
import { requireMember } from "~/auth/session.server";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { DealsEditor } from "~/features/deals/components/deals-editor";
import { dealYears } from "~/features/deals/deal-years";
import { DEAL_MESSAGES, dealDeleteSchema, dealSchema } from "~/features/deals/deal.schema";
import { createOwnDeal, deleteOwnDeal, listOwnDeals, updateOwnDeal, type OwnDeal } from "~/features/deals/deals.server";
import { memberActor } from "~/auth/actor";
import { ImageUpload } from "~/features/profiles/components/image-upload";
import { PremiumUpsell } from "~/features/profiles/components/premium-upsell";
import { Panel, ProfileForm } from "~/features/profiles/components/profile-form";
import { getProfileEditor, updateOwnProfile, type ProfileEditorData } from "~/features/profiles/profile-editor.server";
import { removeProfileImage } from "~/features/profiles/profile-images.server";
import { imageKindSchema, PROFILE_MESSAGES, profileEditorSchema } from "~/features/profiles/profile.schema";
import { InsuranceStatusCard } from "~/features/trust/components/insurance-status";
import { getInsuranceView, type InsuranceView } from "~/features/trust/insurance-renewal.server";
import { logger } from "~/lib/logger.server";
import { PROFILE_IMAGE_MAX_MB } from "~/lib/storage/upload-rules";
import { createToastHeaders, redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/profile";
import { readForm } from "~/lib/form.server";
import { atEdge, expectedMessage, expectedStatus } from "~/lib/errors/http";

const BACK = "/dashboard/profil";

type LoaderResult =
  | { state: "ready"; profile: ProfileEditorData; deals: OwnDeal[]; editingDeal: OwnDeal | null; years: number[]; insurance: InsuranceView }
  | { state: "not-found" }
  | { state: "error" };

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs): Promise<LoaderResult> {
  const { profile: member } = await requireMember(request);
  const actor = memberActor(member);
  try {
    const profile = await getProfileEditor(actor);
    if (!profile) return { state: "not-found" };
    const [deals, insurance] = await Promise.all([profile.premium ? listOwnDeals(actor) : Promise.resolve([]), getInsuranceView(member)]);
    const editingId = new URL(request.url).searchParams.get("reference");
    // Only a deal of this member that is not validated yet can be opened for editing.
    const editingDeal = deals.find((d) => d.id === editingId && d.status !== "validated") ?? null;
    return { state: "ready", profile, deals, editingDeal, years: dealYears(), insurance };
  } catch (error) {
    logger.error({ err: error }, "profile tab could not be loaded");
    return { state: "error" };
  }
});

type ActionResult = { intent: string; result: SubmissionResult<string[]> };

/** The status of a feature's expected failure (an AppError or a thrown `data()`), or null. */
function failureStatus(error: unknown): number | null {
  return error instanceof Response ? null : expectedStatus(error);
}

function failureMessage(error: unknown): string | null {
  return failureStatus(error) === null ? null : expectedMessage(error, "") || null;
}

/** Keeps the form on screen with its values, an error under it and a toast. */
async function failed(intent: string, result: SubmissionResult<string[]>, status: number, title: string, description: string) {
  return data({ intent, result } satisfies ActionResult, { status, headers: await createToastHeaders({ type: "error", title, description }) });
}

export const action = atEdge(async function action({ request }: Route.ActionArgs) {
  const { profile: member } = await requireMember(request);
  const actor = memberActor(member);
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "");
  switch (intent) {
    case "profile": {
      const submission = parseWithZod(formData, { schema: profileEditorSchema });
      if (submission.status !== "success") return data({ intent, result: submission.reply() } satisfies ActionResult, { status: 400 });
      try {
        await updateOwnProfile(actor, submission.value);
      } catch (error) {
        const status = failureStatus(error);
        if (status === null) logger.error({ err: error }, "profile save failed");
        const message = status === 403 ? PROFILE_MESSAGES.premiumOnly : PROFILE_MESSAGES.saveError;
        return failed(intent, submission.reply({ formErrors: [message] }), status ?? 500, PROFILE_MESSAGES.errorTitle, message);
      }
      return redirectWithToast(BACK, { type: "success", title: PROFILE_MESSAGES.savedTitle, description: PROFILE_MESSAGES.savedDescription });
    }
    case "deal-save": {
      const submission = parseWithZod(formData, { schema: dealSchema() });
      if (submission.status !== "success") return data({ intent, result: submission.reply() } satisfies ActionResult, { status: 400 });
      const { dealId, ...input } = submission.value;
      try {
        if (dealId) await updateOwnDeal(actor, dealId, input);
        else await createOwnDeal(actor, input);
      } catch (error) {
        const status = failureStatus(error);
        if (status === null) logger.error({ err: error }, "deal save failed");
        const message = failureMessage(error) ?? DEAL_MESSAGES.saveError;
        return failed(intent, submission.reply({ formErrors: [message] }), status ?? 500, DEAL_MESSAGES.saveError, message);
      }
      return redirectWithToast(`${BACK}#references`, {
        type: "success",
        title: dealId ? DEAL_MESSAGES.updated : DEAL_MESSAGES.added,
        description: DEAL_MESSAGES.pendingInfo,
      });
    }
    case "deal-delete": {
      const submission = parseWithZod(formData, { schema: dealDeleteSchema });
      if (submission.status !== "success") {
        return failed(intent, submission.reply(), 400, DEAL_MESSAGES.deleteError, DEAL_MESSAGES.notFound);
      }
      try {
        await deleteOwnDeal(actor, submission.value.dealId);
      } catch (error) {
        const status = failureStatus(error);
        if (status === null) logger.error({ err: error }, "deal delete failed");
        const message = failureMessage(error) ?? DEAL_MESSAGES.deleteError;
        return failed(intent, submission.reply({ formErrors: [message] }), status ?? 500, DEAL_MESSAGES.deleteError, message);
      }
      return redirectWithToast(`${BACK}#references`, { type: "success", title: DEAL_MESSAGES.deleted });
    }
    case "image-remove": {
      const kind = imageKindSchema.safeParse(formData.get("kind"));
      if (!kind.success) throw data({ message: "Action inconnue" }, { status: 400 });
      try {
        await removeProfileImage(actor, kind.data);
      } catch (error) {
        const status = failureStatus(error);
        if (status === null) logger.error({ err: error }, "profile image removal failed");
        const message = status === 403 ? PROFILE_MESSAGES.premiumOnly : PROFILE_MESSAGES.saveError;
        return data(
          { intent, result: { status: "error", error: { "": [message] } } satisfies SubmissionResult<string[]> } satisfies ActionResult,
          { status: status ?? 500, headers: await createToastHeaders({ type: "error", title: PROFILE_MESSAGES.errorTitle, description: message }) },
        );
      }
      return redirectWithToast(BACK, { type: "success", title: PROFILE_MESSAGES.savedTitle, description: PROFILE_MESSAGES.imageRemovedDescription });
    }
    default:
      throw data({ message: "Action inconnue" }, { status: 400 });
  }
});

function TabHeading({ membership }: { membership?: { premium: boolean } }) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <h2 id="tab-title" className="text-xl font-semibold">
        Mon Profil Professionnel
      </h2>
      {membership ? (
        membership.premium ? (
          <Badge variant="accent">Premium</Badge>
        ) : (
          <Badge variant="secondary">Freemium</Badge>
        )
      ) : null}
    </div>
  );
}

export default function ProfileTab({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as ActionResult | undefined;
  if (loaderData.state !== "ready") {
    return (
      <section aria-labelledby="tab-title" className="grid gap-4">
        <TabHeading />
        {loaderData.state === "not-found" ? (
          <Alert variant="info">
            <AlertDescription>{PROFILE_MESSAGES.notFound}</AlertDescription>
            <Button asChild size="sm" className="mt-3">
              <Link to="/onboarding">Compléter mon adhésion</Link>
            </Button>
          </Alert>
        ) : (
          <Alert variant="destructive">
            <AlertTitle>{PROFILE_MESSAGES.errorTitle}</AlertTitle>
            <AlertDescription>{PROFILE_MESSAGES.loadError}</AlertDescription>
          </Alert>
        )}
      </section>
    );
  }
  const { profile, deals, editingDeal, years, insurance } = loaderData;
  return (
    <section aria-labelledby="tab-title" className="grid gap-6">
      <TabHeading membership={{ premium: profile.premium }} />
      {profile.premium ? null : <PremiumUpsell />}
      <InsuranceStatusCard view={insurance} renewLink />
      <ProfileForm profile={profile} lastResult={result?.intent === "profile" ? result.result : undefined} />
      {profile.premium ? (
        <>
          <Panel id="images" title="Logo et photo" description="Chaque image est enregistrée dès son envoi, convertie au format WebP et débarrassée de ses métadonnées (EXIF, localisation).">
            <div className="grid gap-6 lg:grid-cols-2">
              <ImageUpload kind="logo" label="Logo du cabinet" currentUrl={profile.logoUrl} alt={`Logo ${profile.company}`} maxSizeMB={PROFILE_IMAGE_MAX_MB} />
              <ImageUpload
                kind="photo"
                label="Photo de profil"
                currentUrl={profile.photoUrl}
                alt={`Photo de ${profile.firstName} ${profile.lastName}`}
                maxSizeMB={PROFILE_IMAGE_MAX_MB}
              />
            </div>
          </Panel>
          <Panel
            id="references"
            title="Références M&A certifiées"
            description="Les opérations que vous avez accompagnées. Seules les références validées par un administrateur sont publiées sur votre profil."
          >
            <DealsEditor
              deals={deals}
              years={years}
              editing={editingDeal}
              lastResult={result?.intent === "deal-save" ? result.result : undefined}
            />
          </Panel>
        </>
      ) : null}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const denied = isRouteErrorResponse(error) && (error.status === 403 || error.status === 401);
  return (
    <section aria-labelledby="tab-title" className="grid gap-4">
      <TabHeading />
      <Alert variant="destructive">
        <AlertTitle>{PROFILE_MESSAGES.errorTitle}</AlertTitle>
        <AlertDescription>
          {denied ? "Vous n’avez pas les droits nécessaires pour effectuer cette action." : PROFILE_MESSAGES.loadError}
        </AlertDescription>
      </Alert>
    </section>
  );
}
