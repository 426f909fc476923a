// One conversation model for the « Messages » view. A conversation is
// named in the URL by its kind and the id that defines it:
// - `confrere-<profile id>`: the internal messages between the member and one peer, both ways;
// - `dossier-<file id>`: the thread of a collaboration file (the same one the file page shows);
// - `contact-<message id>`: one message that no peer can be answered on in the app (a visitor's
//   public contact message, or a peer's message whose account is gone).
// The inbox's old links (`/dashboard/messages/<message id>`) name a bare message id: the route
// redirects them to their conversation.

export type ConversationKind = "member" | "file" | "contact";
export type ConversationRef = { kind: ConversationKind; id: string };
export type ConversationParam = ConversationRef | { kind: "legacy"; messageId: string } | null;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const PREFIXES: Record<ConversationKind, string> = { member: "confrere-", file: "dossier-", contact: "contact-" };

/** The conversation a URL segment names; a bare message id is an old inbox link; else null. */
export function parseConversationParam(param: string | undefined): ConversationParam {
  if (!param) return null;
  if (UUID.test(param)) return { kind: "legacy", messageId: param.toLowerCase() };
  for (const kind of Object.keys(PREFIXES) as ConversationKind[]) {
    const prefix = PREFIXES[kind];
    if (param.startsWith(prefix)) {
      const id = param.slice(prefix.length);
      return UUID.test(id) ? { kind, id: id.toLowerCase() } : null;
    }
  }
  return null;
}

export function conversationKey(ref: ConversationRef): string {
  return `${PREFIXES[ref.kind]}${ref.id}`;
}

export function conversationPath(ref: ConversationRef): string {
  return `/dashboard/messages/${conversationKey(ref)}`;
}

/** The list's views: everything, the conversations with a counterpart, those of a file. */
export const CONVERSATION_VIEWS = ["toutes", "confreres", "dossiers"] as const;
export type ConversationView = (typeof CONVERSATION_VIEWS)[number];

export function parseConversationView(value: string | null): ConversationView {
  return (CONVERSATION_VIEWS as readonly string[]).includes(value ?? "") ? (value as ConversationView) : "toutes";
}

/** The list's search: trimmed, inner whitespace collapsed, at most 100 characters; empty is none. */
export function normaliseSearch(value: string | null): string {
  return Array.from((value ?? "").replace(/\s+/g, " ").trim()).slice(0, 100).join("");
}

/** A LIKE pattern that matches `search` literally anywhere (its %, _ and \ escaped). */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
