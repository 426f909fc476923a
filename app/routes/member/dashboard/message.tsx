import { getFormProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Lock, Mail } from "lucide-react";
import { useEffect } from "react";
import { data, Form, isRouteErrorResponse, useFetcher, useNavigation } from "react-router";
import { requireMember } from "~/auth/session.server";
import { BackLink } from "~/components/page";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FieldError, Label, Textarea } from "~/components/ui/input";
import { PremiumUpsellCard } from "~/features/messages/components/premium-upsell";
import { expectedMessage, expectedStatus } from "~/features/messages/errors";
import { replySubject } from "~/features/messages/inbox-rules";
import { MESSAGING_ERRORS, replySchema } from "~/features/messages/messages.schema";
import { getInboxMessage, markMessageRead, replyToMessage } from "~/features/messages/messages.server";
import { formatDateTime } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/message";
import { readForm } from "~/lib/form.server";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Message"), { name: "robots", content: "noindex" }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const actor = await requireMember(request);
  // Reading does not mark the message read: a GET may be a prefetch. The page posts 'mark-read'
  // once it is shown (see the component).
  try {
    return { message: await getInboxMessage(actor, params.messageId), failed: false as const };
  } catch (error) {
    if (expectedStatus(error) !== null) throw error;
    logger.error({ err: error, requestId: context.requestId }, "message load failed");
    return { message: null, failed: true as const };
  }
}

type ReplyResult = { result: SubmissionResult<string[]> };

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireMember(request);
  const formData = await readForm(request);
  const intent = formData.get("intent");
  if (intent === "mark-read") {
    await markMessageRead(actor, params.messageId);
    return { ok: true };
  }
  if (intent !== "reply") throw data({ message: "Action inconnue" }, { status: 400 });
  const submission = parseWithZod(formData, { schema: replySchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply() } satisfies ReplyResult, { status: 400 });
  }
  try {
    await replyToMessage(actor, params.messageId, submission.value);
  } catch (error) {
    const status = expectedStatus(error);
    if (status === 404) throw error;
    if (status === null) logger.error({ err: error, requestId: context.requestId }, "reply failed");
    return data(
      { result: submission.reply({ formErrors: [expectedMessage(error, MESSAGING_ERRORS.sendFailed)] }) } satisfies ReplyResult,
      { status: status ?? 500 },
    );
  }
  return redirectWithToast(`/dashboard/messages/${params.messageId}`, { type: "success", title: MESSAGING_ERRORS.sent });
}

type Loaded = NonNullable<Route.ComponentProps["loaderData"]["message"]>;

function ReplyForm({ message, lastResult }: { message: Loaded; lastResult?: SubmissionResult<string[]> }) {
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "reply";
  const [form, fields] = useForm({
    id: `reply-${message.id}`,
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: replySchema }),
  });
  return (
    <section aria-labelledby="reply-title" className="grid gap-3">
      <h3 id="reply-title" className="text-lg font-semibold">
        Répondre
      </h3>
      <Form method="post" {...getFormProps(form)} className="grid gap-3">
        {form.errors?.length ? (
          <Alert variant="destructive" id={form.errorId}>
            <AlertDescription>{form.errors[0]}</AlertDescription>
          </Alert>
        ) : null}
        <p className="text-sm text-muted-foreground">
          Objet&nbsp;: <span className="font-medium text-foreground">{replySubject(message.subject)}</span>
        </p>
        <div className="grid gap-2">
          <Label htmlFor={fields.message.id}>Votre réponse</Label>
          <Textarea
            {...getTextareaProps(fields.message)}
            key={fields.message.key}
            rows={6}
            maxLength={5000}
            aria-invalid={fields.message.errors ? true : undefined}
          />
          <FieldError id={fields.message.errorId} errors={fields.message.errors} />
        </div>
        <div>
          <Button type="submit" name="intent" value="reply" disabled={sending}>
            {sending ? "Envoi en cours..." : "Envoyer la réponse"}
          </Button>
        </div>
      </Form>
    </section>
  );
}

export default function MessageDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { message, failed } = loaderData;
  const markRead = useFetcher({ key: "mark-read" });
  const unread = message !== null && !message.isRead;
  const messageId = message?.id;

  // Opening the message marks it read: an explicit POST, once the page is on screen.
  useEffect(() => {
    if (unread && messageId && markRead.state === "idle") {
      void markRead.submit({ intent: "mark-read" }, { method: "post" });
    }
    // Only when another message is opened (or it turns unread again).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [messageId, unread]);

  const lastResult = actionData && "result" in actionData ? actionData.result : undefined;

  return (
    <section aria-labelledby="tab-title" className="grid grid-cols-1 gap-4">
      <div>
        <BackLink to="/dashboard/messages" label="Retour aux messages" />
      </div>
      {failed || !message ? (
        <>
          <h2 id="tab-title" className="text-xl font-semibold">
            Message
          </h2>
          <Alert variant="destructive">
            <AlertTitle>Erreur</AlertTitle>
            <AlertDescription>{MESSAGING_ERRORS.loadFailed}</AlertDescription>
          </Alert>
        </>
      ) : (
        <article className="grid gap-5" aria-labelledby="tab-title">
          <header className="grid gap-2">
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant="outline" className="font-normal">
                {message.messageType === "internal" ? "Message interne" : "Contact public"}
              </Badge>
              {message.limited ? (
                <Badge variant="warning" className="gap-1">
                  <Lock className="h-3 w-3" aria-hidden="true" />
                  Contenu limité
                </Badge>
              ) : null}
              {unread ? <Badge>Non lu</Badge> : <span className="sr-only">Lu</span>}
            </div>
            <h2 id="tab-title" className="break-words text-xl font-semibold">
              {message.subject}
            </h2>
            <dl className="grid gap-1 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-3">
              <dt className="text-muted-foreground">De</dt>
              <dd className="break-words font-medium">
                {message.senderName}
                {message.senderEmail ? (
                  <>
                    {" "}
                    &lt;
                    <a className="text-primary underline-offset-4 hover:underline" href={`mailto:${message.senderEmail}`}>
                      {message.senderEmail}
                    </a>
                    &gt;
                  </>
                ) : null}
              </dd>
              <dt className="text-muted-foreground">Reçu le</dt>
              <dd>
                <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
              </dd>
            </dl>
          </header>

          {unread ? (
            <noscript>
              <Form method="post">
                <input type="hidden" name="intent" value="mark-read" />
                <Button type="submit" variant="outline" size="sm">
                  Marquer comme lu
                </Button>
              </Form>
            </noscript>
          ) : null}

          <Card className="p-5">
            {message.content !== null ? (
              <p className="whitespace-pre-wrap break-words" data-testid="message-body">
                {message.content}
              </p>
            ) : message.preview !== null ? (
              <div className="grid gap-2">
                <p className="whitespace-pre-wrap break-words" data-testid="message-body">
                  {message.preview}
                </p>
                <p className="text-sm text-muted-foreground">La suite du message est réservée aux membres Premium.</p>
              </div>
            ) : (
              <p className="text-muted-foreground" data-testid="message-body">
                Le contenu des messages de vos confrères est réservé aux membres Premium.
              </p>
            )}
          </Card>

          {message.senderEmail ? (
            <div>
              <Button asChild variant="outline">
                <a href={`mailto:${message.senderEmail}?subject=${encodeURIComponent(replySubject(message.subject))}`}>
                  <Mail aria-hidden="true" />
                  Répondre par e-mail
                </a>
              </Button>
            </div>
          ) : null}

          {message.limited ? (
            <PremiumUpsellCard>
              <p>
                Passez Premium pour lire l’intégralité de vos messages et répondre à vos confrères depuis la messagerie
                interne.
              </p>
            </PremiumUpsellCard>
          ) : null}

          {message.canReply ? <ReplyForm key={message.id} message={message} lastResult={lastResult} /> : null}
        </article>
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section aria-labelledby="tab-title" className="grid grid-cols-1 gap-4">
      <div>
        <BackLink to="/dashboard/messages" label="Retour aux messages" />
      </div>
      <h2 id="tab-title" className="text-xl font-semibold">
        {notFound ? "Message introuvable" : "Message"}
      </h2>
      <Alert variant="destructive">
        <AlertDescription>
          {notFound ? "Ce message n’existe pas ou ne vous est pas adressé." : MESSAGING_ERRORS.loadFailed}
        </AlertDescription>
      </Alert>
    </section>
  );
}
