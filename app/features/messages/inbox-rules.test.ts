import { describe, expect, it } from "vitest";
import { firstLine, messageVisibility, replySubject, type StoredMessage } from "./inbox-rules";

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
    ["freemium", internal, true, null, preview, null, false],
    ["freemium", visitor, true, null, preview, "visiteur@exemple.fr", false],
    // Any other value counts as freemium (spec §3).
    ["standard", internal, true, null, preview, null, false],
    [null, visitor, true, null, preview, "visiteur@exemple.fr", false],
  ] as const)("%s / %j", (membership, message, limited, content, previewText, senderEmail, canReply) => {
    expect(messageVisibility(message, membership)).toEqual({ limited, content, preview: previewText, senderEmail, canReply });
  });

  it("keeps a short body whole in the preview", () => {
    expect(messageVisibility({ ...visitor, content: "Bonjour" }, "freemium").preview).toBe("Bonjour");
  });
});

describe("firstLine: a freemium member's share of a body", () => {
  it.each([
    ["Bonjour", "Bonjour"],
    ["Bonjour,\nvoici le dossier.", "Bonjour,…"],
    ["\n\n  Bonjour  \r\n\r\n", "Bonjour"],
    ["Ligne 1\r\nLigne 2", "Ligne 1…"],
    ["", ""],
    ["   \n  ", ""],
    [`${"é".repeat(100)}`, "é".repeat(100)],
    [`${"é".repeat(101)}`, `${"é".repeat(100)}…`],
  ])("%j → %j", (body, expected) => {
    expect(firstLine(body)).toBe(expected);
  });

  it("shows a freemium member the first line of a peer's message, and nothing more", () => {
    const v = messageVisibility({ ...internal, content: "Bonjour confrère,\nle client s’appelle X." }, "freemium");
    expect(v).toMatchObject({ limited: true, content: null, preview: "Bonjour confrère,…", canReply: false });
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
