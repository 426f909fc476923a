import { getFormProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { FolderOpen, Lock, Mail } from "lucide-react";
import { useEffect } from "react";
import { data, Form, isRouteErrorResponse, Link, redirect, type ShouldRevalidateFunctionArgs, useFetcher, useNavigation } from "react-router";
import { z } from "zod";
import { requireMember } from "~/auth/session.server";
import { BackLink } from "~/components/page";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FieldError, Label, Textarea } from "~/components/ui/input";
import { fileUrl } from "~/features/collaboration/collaboration-rules";
import { postFileMessage } from "~/features/collaboration/collaboration.server";
import { fileActor } from "~/features/collaboration/file-access.server";
import { MessagesUpsell } from "~/features/messages/components/messages-upsell";
import { type ConversationRef, conversationPath, parseConversationParam } from "~/features/messages/conversation-rules";
import { conversationOfMessage, getConversation, markConversationRead } from "~/features/messages/conversations.server";
import { atEdge, expectedMessage, expectedStatus } from "~/lib/errors/http";
import { MESSAGING_ERRORS, replySchema } from "~/features/messages/messages.schema";
import { type MessageActor, sendInternalMessage } from "~/features/messages/messages.server";
import { readForm } from "~/lib/form.server";
import { formatDateTime } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { cn } from "~/lib/utils";
import type { Route } from "./+types/conversation";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Conversation"), { name: "robots", content: "noindex" }];

function notFound(): never {
  throw data({ message: MESSAGING_ERRORS.notFound }, { status: 404 });
}

/** The conversation the URL names; an old inbox link (a bare message id) is resolved to its own. */
async function resolve(actor: MessageActor, param: string): Promise<{ ref: ConversationRef; legacy: boolean }> {
  const parsed = parseConversationParam(param);
  if (!parsed) notFound();
  if (parsed.kind === "legacy") return { ref: await conversationOfMessage(actor, parsed.messageId), legacy: true };
  return { ref: parsed, legacy: false };
}

export const loader = atEdge(async function loader({ request, params, context }: Route.LoaderArgs) {
  const actor = await requireMember(request);
  const { ref, legacy } = await resolve(actor, params.conversationId);
  // The inbox’s old links (e-mails already sent) lead to the message’s conversation; not a 301:
  // the message moves to a `contact-` conversation if its sender’s account goes.
  if (legacy) throw redirect(conversationPath(ref));
  // Reading does not mark read: a GET may be a prefetch. The page posts 'mark-read' once shown.
  try {
    return { conversation: await getConversation(actor, ref), failed: false as const };
  } catch (error) {
    if (expectedStatus(error) !== null) throw error;
    logger.error({ err: error, requestId: context.requestId }, "conversation load failed");
    return { conversation: null, failed: true as const };
  }
});

const markReadSchema = z.object({ upTo: z.uuid().optional() });

type ReplyResult = { result: SubmissionResult<string[]> };

export const action = atEdge(async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireMember(request);
  const { ref } = await resolve(actor, params.conversationId);
  const formData = await readForm(request);
  const intent = formData.get("intent");
  if (intent === "mark-read") {
    const parsed = markReadSchema.safeParse({ upTo: formData.get("upTo") || undefined });
    if (!parsed.success) throw data({ message: "Requête invalide" }, { status: 400 });
    await markConversationRead(actor, ref, parsed.data.upTo ?? null);
    return { ok: true };
  }
  if (intent !== "reply") throw data({ message: "Action inconnue" }, { status: 400 });
  const submission = parseWithZod(formData, { schema: replySchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply() } satisfies ReplyResult, { status: 400 });
  }
  try {
    if (ref.kind === "file") {
      await postFileMessage(fileActor(actor.profile), ref.id, submission.value.message);
    } else if (ref.kind === "member") {
      const thread = await getConversation(actor, ref);
      const subject = thread.reply.kind === "internal" ? thread.reply.subject : "Message";
      await sendInternalMessage(actor, { recipientId: ref.id, subject, message: submission.value.message });
    } else {
      await getConversation(actor, ref);
      throw data({ message: MESSAGING_ERRORS.cannotReply }, { status: 409 });
    }
  } catch (error) {
    const status = expectedStatus(error);
    if (status === 404) throw error;
    if (status === null) logger.error({ err: error, requestId: context.requestId }, "conversation reply failed");
    return data(
      { result: submission.reply({ formErrors: [expectedMessage(error, MESSAGING_ERRORS.sendFailed)] }) } satisfies ReplyResult,
      { status: status ?? 500 },
    );
  }
  return redirectWithToast(`${conversationPath(ref)}#reponse`, { type: "success", title: MESSAGING_ERRORS.sent });
});

/** Marking read must not reload the thread: the « Nouveau » marks stay until the next visit. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formData?.get("intent") === "mark-read") return false;
  return defaultShouldRevalidate;
}

type Loaded = NonNullable<Route.ComponentProps["loaderData"]["conversation"]>;

function ReplyForm({ conversation, lastResult }: { conversation: Loaded; lastResult?: SubmissionResult<string[]> }) {
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "reply";
  const [form, fields] = useForm({
    id: `reply-${conversation.key}`,
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: replySchema }),
  });
  const reply = conversation.reply;
  return (
    <section aria-labelledby="reply-title" className="grid gap-3" id="reponse">
      <h3 id="reply-title" className="text-lg font-semibold">
        Répondre
      </h3>
      <Form method="post" {...getFormProps(form)} className="grid gap-3">
        {form.errors?.length ? (
          <Alert variant="destructive" id={form.errorId}>
            <AlertDescription>{form.errors[0]}</AlertDescription>
          </Alert>
        ) : null}
        {reply.kind === "internal" ? (
          <p className="text-sm text-muted-foreground">
            Objet&nbsp;: <span className="font-medium text-foreground">{reply.subject}</span>
          </p>
        ) : null}
        <div className="grid gap-2">
          <Label htmlFor={fields.message.id}>Votre message</Label>
          <Textarea
            {...getTextareaProps(fields.message)}
            key={fields.message.key}
            rows={5}
            maxLength={5000}
            aria-invalid={fields.message.errors ? true : undefined}
          />
          <FieldError id={fields.message.errorId} errors={fields.message.errors} />
        </div>
        <div>
          <Button type="submit" name="intent" value="reply" disabled={sending}>
            {sending ? "Envoi en cours..." : "Envoyer"}
          </Button>
        </div>
      </Form>
    </section>
  );
}

export default function Conversation({ loaderData, actionData }: Route.ComponentProps) {
  const { conversation, failed } = loaderData;
  const markRead = useFetcher({ key: "conversation-read" });
  const key = conversation?.key;
  const unread = conversation?.unread ?? 0;
  const upTo = conversation?.lastMessageId ?? "";

  // Opening the conversation marks it read up to the newest message shown, here and in the file.
  useEffect(() => {
    if (unread > 0 && markRead.state === "idle") {
      // Nothing shown changes with it (the bell follows its live stream), so nothing is read again: a
      // revalidation would race a navigation the member starts meanwhile (decision 082).
      void markRead.submit({ intent: "mark-read", upTo }, { method: "post", defaultShouldRevalidate: false });
    }
    // Once per conversation shown (or when it turns unread again).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, unread]);

  const lastResult = actionData && "result" in actionData ? actionData.result : undefined;

  if (failed || !conversation) {
    return (
      <section aria-labelledby="tab-title" className="grid grid-cols-1 gap-4">
        <div>
          <BackLink to="/dashboard/messages" label="Retour aux messages" />
        </div>
        <h2 id="tab-title" className="text-xl font-semibold">
          Conversation
        </h2>
        <Alert variant="destructive">
          <AlertTitle>Erreur</AlertTitle>
          <AlertDescription>{MESSAGING_ERRORS.loadFailed}</AlertDescription>
        </Alert>
      </section>
    );
  }

  const reply = conversation.reply;
  return (
    <section aria-labelledby="tab-title" className="grid grid-cols-1 gap-4">
      <div>
        <BackLink to="/dashboard/messages" label="Retour aux messages" />
      </div>
      <header className="grid gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant="outline" className="font-normal">
            {conversation.kind === "file" ? "Dossier de rapprochement" : conversation.kind === "member" ? "Confrère" : "Message"}
          </Badge>
          {conversation.limited ? (
            <Badge variant="warning" className="gap-1">
              <Lock className="h-3 w-3" aria-hidden="true" />
              Contenu limité
            </Badge>
          ) : null}
          {unread > 0 ? <Badge>{unread === 1 ? "1 non lu" : `${unread} non lus`}</Badge> : null}
        </div>
        <h2 id="tab-title" className="break-words text-xl font-semibold">
          {conversation.title}
        </h2>
        {conversation.subtitle ? <p className="break-words text-sm text-muted-foreground">{conversation.subtitle}</p> : null}
        {conversation.file ? (
          <div>
            <Button asChild variant="outline" size="sm">
              <Link to={`${fileUrl(conversation.file.id)}#messages`}>
                <FolderOpen aria-hidden="true" />
                Ouvrir le dossier {conversation.file.reference}
              </Link>
            </Button>
          </div>
        ) : null}
      </header>

      {unread > 0 ? (
        <noscript>
          <Form method="post">
            <input type="hidden" name="intent" value="mark-read" />
            <input type="hidden" name="upTo" value={upTo} />
            <Button type="submit" variant="outline" size="sm">
              Marquer comme lu
            </Button>
          </Form>
        </noscript>
      ) : null}

      {conversation.messages.length === 0 ? (
        <Card className="p-5 text-sm text-muted-foreground">
          Aucun message pour l’instant. Écrivez ci-dessous à votre confrère&nbsp;: seuls vous deux avez accès à cet échange.
        </Card>
      ) : (
        <ol className="grid gap-3" aria-label="Messages de la conversation">
          {conversation.messages.map((m) => (
            <li
              key={m.id}
              data-testid="thread-message"
              className={cn("grid gap-1 rounded-lg border p-3", m.byMe ? "bg-muted/50 sm:ml-8" : "sm:mr-8", m.unread && "border-primary")}
            >
              <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                <span className="font-medium text-foreground">{m.senderName}</span>
                <time dateTime={m.at}>{formatDateTime(m.at)}</time>
                {m.unread ? <Badge variant="default">Nouveau</Badge> : null}
              </p>
              {m.subject ? (
                <p className="break-words text-sm font-semibold" data-typography="skip">
                  {m.subject}
                </p>
              ) : null}
              {m.body !== null ? (
                <p className="whitespace-pre-line break-words text-sm" data-testid="message-body" data-typography="skip">
                  {m.body}
                </p>
              ) : (
                <div className="grid gap-1">
                  <p className="whitespace-pre-line break-words text-sm" data-testid="message-body" data-typography="skip">
                    {m.preview}
                  </p>
                  <p className="text-xs text-muted-foreground">La suite du message est réservée aux membres Premium.</p>
                </div>
              )}
            </li>
          ))}
        </ol>
      )}

      {conversation.limited || reply.kind === "premium" ? <MessagesUpsell /> : null}

      {reply.kind === "internal" || reply.kind === "file" ? <ReplyForm key={conversation.key} conversation={conversation} lastResult={lastResult} /> : null}
      {reply.kind === "email" ? (
        <div>
          <Button asChild variant="outline">
            <a href={`mailto:${reply.email}?subject=${encodeURIComponent(reply.subject)}`}>
              <Mail aria-hidden="true" />
              Répondre par e-mail à {reply.email}
            </a>
          </Button>
        </div>
      ) : null}
      {reply.kind === "none" ? <p className="text-sm text-muted-foreground">{reply.reason}</p> : null}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFoundError = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section aria-labelledby="tab-title" className="grid grid-cols-1 gap-4">
      <div>
        <BackLink to="/dashboard/messages" label="Retour aux messages" />
      </div>
      <h2 id="tab-title" className="text-xl font-semibold">
        {notFoundError ? "Conversation introuvable" : "Conversation"}
      </h2>
      <Alert variant="destructive">
        <AlertDescription>
          {notFoundError ? "Cette conversation n’existe pas ou ne vous concerne pas." : MESSAGING_ERRORS.loadFailed}
        </AlertDescription>
      </Alert>
    </section>
  );
}
