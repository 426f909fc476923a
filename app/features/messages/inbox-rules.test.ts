import { describe, expect, it } from "vitest";
import { messageVisibility, replySubject, type StoredMessage } from "./inbox-rules";

const long = "x".repeat(150);
const internal: StoredMessage = { senderId: "11111111-1111-4111-8111-111111111111", senderEmail: "pair@exemple.fr", messageType: "internal", content: long };
const visitor: StoredMessage = { senderId: null, senderEmail: "visiteur@exemple.fr", messageType: "public_contact", content: long };
const preview = `${"x".repeat(100)}…`;

describe("messageVisibility: what each tier sees of a received message", () => {
  it.each([
    // membership, message, limited, content, preview, senderEmail, canReply
    ["premium", internal, false, long, preview, null, true],
    ["founding_member", internal, false, long, preview, null, true],
    ["premium", visitor, false, long, preview, "visiteur@exemple.fr", false],
    ["founding_member", { ...internal, senderId: null }, false, long, preview, null, false],
    ["freemium", internal, true, null, null, null, false],
    ["freemium", visitor, true, null, preview, "visiteur@exemple.fr", false],
    // Any other value counts as freemium (spec §3).
    ["standard", internal, true, null, null, null, false],
    [null, visitor, true, null, preview, "visiteur@exemple.fr", false],
  ] as const)("%s / %j", (membership, message, limited, content, previewText, senderEmail, canReply) => {
    expect(messageVisibility(message, membership)).toEqual({ limited, content, preview: previewText, senderEmail, canReply });
  });

  it("keeps a short body whole in the preview", () => {
    expect(messageVisibility({ ...visitor, content: "Bonjour" }, "freemium").preview).toBe("Bonjour");
  });
});

describe("replySubject", () => {
  it.each([
    ["Co-mandat à Lyon", "Re\u00a0: Co-mandat à Lyon"],
    ["Re: Co-mandat", "Re\u00a0: Co-mandat"],
    ["RE : re: Co-mandat", "Re\u00a0: Co-mandat"],
    ["Re:", "Re\u00a0: Re:"],
  ])("%s → %s", (subject, expected) => {
    expect(replySubject(subject)).toBe(expected);
  });
});
