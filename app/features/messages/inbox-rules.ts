// What a member sees of a received message, by membership tier (spec §2 "Messages tab", §6).
// Pure, so that the rule is tested with a table of cases and the server applies it to every
// message before anything leaves.
//
// The rule ("limited content" for freemium members):
// - premium and founding members see everything: sender, subject, date, the whole body, the
//   sender's e-mail for public contact messages, and may reply to internal messages;
// - freemium members see the sender's name, the subject, the date and the first line of every
//   message (at most 100 characters); of a public contact message also the sender's e-mail, so
//   that the visitor always gets an answer. The rest of the body and in-app replies come with
//   Premium.
import { can } from "~/auth/permissions";
import { MESSAGE_PREVIEW_LENGTH, messagePreview } from "~/lib/format";

export type MessageType = "public_contact" | "internal";

/** The stored fields the rule needs. `content` may be cut to 101 characters (list queries). */
export type StoredMessage = {
  senderId: string | null;
  senderEmail: string;
  messageType: MessageType;
  content: string;
};

export type MessageVisibility = {
  /** True when part of the message is held back until the member upgrades. */
  limited: boolean;
  /** The whole body, or null when the member may not read it. */
  content: string | null;
  /** First 100 characters (+ '…'); for a freemium member the first line only (firstLine). */
  preview: string | null;
  /** The visitor's address (public contact only), so that the member can answer by e-mail. */
  senderEmail: string | null;
  /** An in-app reply: internal messages with a known sender, for members with internal messaging. */
  canReply: boolean;
};

export function messageVisibility(message: StoredMessage, membership: string | null | undefined): MessageVisibility {
  const full = can(membership, "fullInbox");
  const publicContact = message.messageType === "public_contact";
  const senderEmail = publicContact ? message.senderEmail : null;
  if (full) {
    return {
      limited: false,
      content: message.content,
      preview: messagePreview(message.content),
      senderEmail,
      canReply: !publicContact && message.senderId !== null && can(membership, "internalMessaging"),
    };
  }
  return {
    limited: true,
    content: null,
    preview: firstLine(message.content),
    senderEmail,
    canReply: false,
  };
}

/**
 * The first line of a body that has text, at most 100 characters, with '…' when anything of the
 * body is left out (a freemium member's share of a message). `text` may be cut to 101 characters.
 */
export function firstLine(text: string): string {
  const lines = text.split(/\r\n|\r|\n/);
  const index = lines.findIndex((l) => l.trim() !== "");
  if (index === -1) return "";
  const line = lines[index].trim();
  const rest = lines.slice(index + 1).some((l) => l.trim() !== "");
  const chars = Array.from(line);
  if (chars.length > MESSAGE_PREVIEW_LENGTH) return `${chars.slice(0, MESSAGE_PREVIEW_LENGTH).join("")}…`;
  return rest ? `${line}…` : line;
}

/** 'Re : subject' (non-breaking space), without piling up 'Re : Re : …' on a long exchange. */
export function replySubject(subject: string): string {
  const base = subject.replace(/^(\s*re\s*:\s*)+/i, "").trim();
  return `Re\u00a0: ${base || subject.trim()}`;
}
