// /invitation/:token: the invitation to a collaboration file. It names the file's
// reference, the inviter, the role and the side — never a client. A member signs in and joins; a
// professional outside the network creates a guest account limited to the file (password, then
// the e-mail confirmation, whose link brings them back here to join).
import { Email } from "~/components/email";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { getSessionUser, requireUser } from "~/auth/session.server";
import { PageContainer } from "~/components/page";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Input, Label } from "~/components/ui/input";
import { PARTICIPANT_MESSAGES, ROLE_LABELS, sharedFileUrl, SIDE_LABELS } from "~/features/collaboration/participant-rules";
import { guestSignUpSchema } from "~/features/collaboration/participants.schema";
import { acceptInvitation, readInvitation, signUpGuest } from "~/features/collaboration/participant-joining.server";
import { atEdge, expectedMessage, expectedStatus } from "~/lib/errors/http";
import { readForm } from "~/lib/form.server";
import { firstFormError } from "~/lib/form-errors";
import { logger } from "~/lib/logger.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/invitation";

export const meta: Route.MetaFunction = () => [{ title: "Invitation à un dossier" }, { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const invitation = await readInvitation(params.token);
  if (!invitation) throw data({ message: PARTICIPANT_MESSAGES.invitationInvalid }, { status: 404 });
  const user = await getSessionUser(request);
  const { fileId: _fileId, ...shown } = invitation;
  void _fileId;
  return {
    invitation: shown,
    signedInAs: user?.email ?? null,
    matches: user !== null && user.email.toLowerCase() === invitation.email.toLowerCase(),
  };
});

type ActionResult = { error: string } | { done: string };

export const action = atEdge(async function action({ request, params, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  try {
    if (intent === "accept") {
      const user = await requireUser(request, { guests: true });
      const joined = await acceptInvitation(user, params.token);
      const title = joined.status === "active" ? "Vous avez rejoint le dossier" : "Invitation acceptée\u00a0: l’accès attend l’approbation du dossier";
      return redirectWithToast(joined.status === "active" ? sharedFileUrl(joined.fileId) : "/dossiers-partages", { type: "success", title });
    }
    if (intent === "sign-up") {
      if (await getSessionUser(request)) return data({ error: PARTICIPANT_MESSAGES.wrongAccount } satisfies ActionResult, { status: 409 });
      const s = parseWithZod(form, { schema: guestSignUpSchema });
      if (s.status !== "success") return data({ error: firstFormError(s.error) } satisfies ActionResult, { status: 400 });
      const result = await signUpGuest(request, params.token, s.value);
      if (!result.ok) return data({ error: result.message } satisfies ActionResult, { status: result.status });
      return data({ done: PARTICIPANT_MESSAGES.guestSignedUp } satisfies ActionResult);
    }
    throw data({ message: "Action inconnue" }, { status: 400 });
  } catch (error) {
    const status = expectedStatus(error);
    if (status === null) {
      logger.error({ err: error, requestId: context.requestId, intent }, "invitation command failed");
      throw error;
    }
    if (status === 400 && intent !== "accept" && intent !== "sign-up") throw error;
    return data({ error: expectedMessage(error, "L’opération n’a pas pu aboutir.") } satisfies ActionResult, { status });
  }
});

function GuestSignUp({ email }: { email: string }) {
  return (
    <Form method="post" className="grid gap-3" aria-labelledby="guest-title">
      <h2 id="guest-title" className="text-lg font-semibold">
        Créer votre compte invité
      </h2>
      <p className="text-sm text-muted-foreground">
        Ce compte donne accès à ce dossier seulement, et à rien d’autre du réseau. Adresse&nbsp;: <strong>
          <Email address={email} />
        </strong>
      </p>
      <input type="hidden" name="intent" value="sign-up" />
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor="guest-first-name">Prénom</Label>
          <Input id="guest-first-name" name="firstName" required autoComplete="given-name" maxLength={80} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="guest-last-name">Nom</Label>
          <Input id="guest-last-name" name="lastName" required autoComplete="family-name" maxLength={80} />
        </div>
      </div>
      <div className="grid gap-2">
        <Label htmlFor="guest-company">Cabinet ou établissement (facultatif)</Label>
        <Input id="guest-company" name="company" autoComplete="organization" maxLength={120} />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor="guest-password">Mot de passe</Label>
          <Input id="guest-password" name="password" type="password" required minLength={8} maxLength={128} autoComplete="new-password" />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="guest-confirm">Confirmation du mot de passe</Label>
          <Input id="guest-confirm" name="confirmPassword" type="password" required minLength={8} maxLength={128} autoComplete="new-password" />
        </div>
      </div>
      <div>
        <Button type="submit">Créer mon compte invité</Button>
      </div>
    </Form>
  );
}

export default function Invitation({ loaderData, actionData }: Route.ComponentProps) {
  const { invitation, signedInAs, matches } = loaderData;
  const open = invitation.state === "invited";
  const error = actionData && "error" in actionData ? actionData.error : null;
  const done = actionData && "done" in actionData ? actionData.done : null;
  return (
    <PageContainer className="py-8">
      <Card className="mx-auto grid max-w-2xl gap-4 p-4 sm:p-6">
        <h1 className="text-xl font-semibold">Invitation au dossier {invitation.reference}</h1>
        <p className="break-words">
          {invitation.invitedByName} vous invite en tant que <strong>{ROLE_LABELS[invitation.role].toLowerCase()}</strong> ({SIDE_LABELS[invitation.side].toLowerCase()}).
        </p>
        <p className="text-sm text-muted-foreground" data-testid="invitation-state">
          {invitation.stateLabel}
        </p>
        {error ? (
          <Alert variant="destructive" role="alert">
            <AlertDescription>{error}</AlertDescription>
          </Alert>
        ) : null}
        {done ? (
          <Alert role="status">
            <AlertTitle>Vérifiez votre messagerie</AlertTitle>
            <AlertDescription>{done}</AlertDescription>
          </Alert>
        ) : !open ? (
          <Alert>
            <AlertDescription>{PARTICIPANT_MESSAGES.notOpen}</AlertDescription>
          </Alert>
        ) : matches ? (
          <Form method="post">
            <input type="hidden" name="intent" value="accept" />
            <Button type="submit">Rejoindre le dossier</Button>
          </Form>
        ) : signedInAs ? (
          <Alert>
            <AlertDescription>{PARTICIPANT_MESSAGES.wrongAccount}</AlertDescription>
          </Alert>
        ) : invitation.accountExists ? (
          <p>
            {PARTICIPANT_MESSAGES.accountExists}{" "}
            <Link to="/auth" className="underline">
              Se connecter
            </Link>
          </p>
        ) : (
          <GuestSignUp email={invitation.email} />
        )}
      </Card>
    </PageContainer>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  void error;
  return (
    <PageContainer className="py-8">
      <Alert variant="destructive">
        <AlertTitle>Invitation introuvable</AlertTitle>
        <AlertDescription>{PARTICIPANT_MESSAGES.invitationInvalid}</AlertDescription>
      </Alert>
    </PageContainer>
  );
}
