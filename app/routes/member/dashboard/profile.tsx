import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, isRouteErrorResponse, Link, useNavigation } from "react-router";
import { requireMember } from "~/auth/session.server";
import { TextField } from "~/components/form-field";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { FieldError, Input, Label, NativeSelect, Textarea } from "~/components/ui/input";
import { DEPARTMENTS } from "~/db/reference";
import { DealsEditor } from "~/features/deals/components/deals-editor";
import { dealYears } from "~/features/deals/deal-years";
import { DEAL_MESSAGES, dealDeleteSchema, dealSchema } from "~/features/deals/deal.schema";
import { createOwnDeal, deleteOwnDeal, listOwnDeals, updateOwnDeal, type OwnDeal } from "~/features/deals/deals.server";
import { memberActor } from "~/auth/actor";
import { ImageUpload } from "~/features/profiles/components/image-upload";
import { PremiumUpsell } from "~/features/profiles/components/premium-upsell";
import { SectorPicker } from "~/features/profiles/components/sector-picker";
import { getProfileEditor, updateOwnProfile, type ProfileEditorData } from "~/features/profiles/profile-editor.server";
import { removeProfileImage } from "~/features/profiles/profile-images.server";
import { imageKindSchema, PROFILE_LIMITS, PROFILE_MESSAGES, profileEditorSchema } from "~/features/profiles/profile.schema";
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

function Panel({ id, title, description, children }: { id: string; title: string; description?: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} id={id} className="grid scroll-mt-4 gap-4 rounded-lg border bg-background p-4 shadow-sm sm:p-6">
      <div className="grid gap-1">
        <h3 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h3>
        {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
      </div>
      {children}
    </section>
  );
}

function ReadOnlyField({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} value={value} readOnly className="bg-muted text-foreground" />
    </div>
  );
}

function ProfileForm({ profile, lastResult }: { profile: ProfileEditorData; lastResult?: SubmissionResult<string[]> }) {
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "profile";
  const [form, fields] = useForm({
    id: "profile-editor",
    lastResult,
    defaultValue: {
      locationDepartment: profile.locationDepartment ?? "",
      locationCity: profile.locationCity ?? "",
      fullAddress: profile.fullAddress ?? "",
      specializationSectors: profile.specializationSectors,
      ...(profile.premium
        ? { detailedPresentation: profile.detailedPresentation ?? "", internalPresentation: profile.internalPresentation ?? "" }
        : {}),
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: profileEditorSchema }),
  });
  const initialSectors = fields.specializationSectors.initialValue;
  const sectors = Array.isArray(initialSectors)
    ? initialSectors.filter((v): v is string => typeof v === "string")
    : typeof initialSectors === "string"
      ? [initialSectors]
      : [];
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-6">
      {form.errors?.length ? (
        <Alert variant="destructive" id={form.errorId}>
          <AlertTitle>{PROFILE_MESSAGES.errorTitle}</AlertTitle>
          <AlertDescription>{form.errors[0]}</AlertDescription>
        </Alert>
      ) : null}
      <Panel id="identite" title="Informations professionnelles" description="Vérifiées lors de votre adhésion, ces informations ne sont pas modifiables ici.">
        <div className="grid gap-4 sm:grid-cols-2">
          <ReadOnlyField id="profile-first-name" label="Prénom" value={profile.firstName} />
          <ReadOnlyField id="profile-last-name" label="Nom" value={profile.lastName} />
          <ReadOnlyField id="profile-company" label="Société / cabinet" value={profile.company} />
          <ReadOnlyField id="profile-profession" label="Profession" value={profile.professionLabel} />
          <ReadOnlyField id="profile-college" label="Collège" value={profile.collegeLabel} />
        </div>
        <p className="text-xs text-muted-foreground">
          Une correction à apporter&nbsp;? <Link to="/contact" className="text-primary underline">Contactez l’équipe</Link>.
        </p>
      </Panel>
      <Panel id="localisation" title="Localisation">
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor={fields.locationDepartment.id}>Département</Label>
            <NativeSelect
              {...getSelectProps(fields.locationDepartment)}
              key={fields.locationDepartment.key}
              aria-required="true"
              aria-invalid={fields.locationDepartment.errors ? true : undefined}
              aria-describedby={fields.locationDepartment.errors ? fields.locationDepartment.errorId : undefined}
            >
              <option value="">Sélectionnez votre département</option>
              {DEPARTMENTS.map((d) => (
                <option key={d.code} value={d.code}>
                  {d.code} - {d.name}
                </option>
              ))}
            </NativeSelect>
            <FieldError id={fields.locationDepartment.errorId} errors={fields.locationDepartment.errors} />
          </div>
          <TextField
            label="Ville"
            inputProps={{ ...getInputProps(fields.locationCity, { type: "text" }), key: fields.locationCity.key, autoComplete: "address-level2", maxLength: PROFILE_LIMITS.city }}
            errors={fields.locationCity.errors}
            errorId={fields.locationCity.errorId}
          />
        </div>
        <TextField
          label="Adresse complète"
          hint="Numéro, rue, code postal et ville de votre cabinet"
          inputProps={{ ...getInputProps(fields.fullAddress, { type: "text" }), key: fields.fullAddress.key, autoComplete: "street-address", maxLength: PROFILE_LIMITS.address }}
          errors={fields.fullAddress.errors}
          errorId={fields.fullAddress.errorId}
        />
      </Panel>
      <Panel id="secteurs" title="Expertise">
        <SectorPicker name={fields.specializationSectors.name} defaultValue={sectors} errors={fields.specializationSectors.errors} />
      </Panel>
      {profile.premium ? (
        <Panel id="presentations" title="Présentations" description="Réservées aux membres Premium.">
          <div className="grid gap-2">
            <Label htmlFor={fields.detailedPresentation.id}>Présentation détaillée (profil public)</Label>
            <Textarea
              {...getTextareaProps(fields.detailedPresentation)}
              key={fields.detailedPresentation.key}
              rows={6}
              maxLength={PROFILE_LIMITS.detailedPresentation}
              aria-describedby={`${fields.detailedPresentation.id}-hint${fields.detailedPresentation.errors ? ` ${fields.detailedPresentation.errorId}` : ""}`}
              aria-invalid={fields.detailedPresentation.errors ? true : undefined}
            />
            <p id={`${fields.detailedPresentation.id}-hint`} className="text-xs text-muted-foreground">
              Affichée sur votre page publique dans l’annuaire des professionnels agréés.
            </p>
            <FieldError id={fields.detailedPresentation.errorId} errors={fields.detailedPresentation.errors} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={fields.internalPresentation.id}>Présentation interne (réservée aux confrères)</Label>
            <Textarea
              {...getTextareaProps(fields.internalPresentation)}
              key={fields.internalPresentation.key}
              rows={4}
              maxLength={PROFILE_LIMITS.internalPresentation}
              aria-describedby={`${fields.internalPresentation.id}-hint${fields.internalPresentation.errors ? ` ${fields.internalPresentation.errorId}` : ""}`}
              aria-invalid={fields.internalPresentation.errors ? true : undefined}
            />
            <p id={`${fields.internalPresentation.id}-hint`} className="text-xs text-muted-foreground">
              Visible uniquement des membres dans l’annuaire interne.
            </p>
            <FieldError id={fields.internalPresentation.errorId} errors={fields.internalPresentation.errors} />
          </div>
        </Panel>
      ) : null}
      <div>
        <Button type="submit" name="intent" value="profile" size="lg" disabled={saving}>
          {saving ? "Sauvegarde..." : "Sauvegarder"}
        </Button>
      </div>
    </Form>
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
