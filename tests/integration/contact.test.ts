import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { contactMessages, mailOutbox, messages, rateLimitCounters } from "~/db/schema";
import { CONTACT_MESSAGES, type ContactPageInput } from "~/features/contact/contact.schema";
import { createContactMessage } from "~/features/contact/contact.server";
import { createMessage } from "~/features/messages/messages.server";
import { getEnv, setEnv } from "~/lib/env.server";
import { action } from "~/routes/public/contact";
import { createApplicant, createMember, seedFactories, setEmailFrequency } from "../support/factories";
import { useTestDatabase } from "../support/db";

const t = useTestDatabase();

const input = (overrides: Partial<ContactPageInput> = {}): ContactPageInput => ({
  firstName: "Élodie",
  lastName: "Dupré",
  email: "elodie.dupre@exemple.fr",
  company: "Dupré & Associés",
  subject: "Adhésion d'un cabinet",
  message: "Bonjour,\nnous souhaitons rejoindre le réseau. <script>alert(1)</script>",
  ...overrides,
});

beforeEach(async () => {
  const db = t.db!;
  await db.delete(mailOutbox);
  await db.delete(contactMessages);
  await db.delete(messages);
  await db.delete(rateLimitCounters);
});

describe("contact page: createContactMessage", () => {
  it("stores the message and queues exactly one e-mail to the team, reply-to the sender", async () => {
    const { id } = await createContactMessage(input());
    const db = t.db!;
    const rows = await db.select().from(contactMessages);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id,
      firstName: "Élodie",
      lastName: "Dupré",
      email: "elodie.dupre@exemple.fr",
      company: "Dupré & Associés",
      subject: "Adhésion d'un cabinet",
    });
    const mails = await db.select().from(mailOutbox);
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    expect(mail.toAddress).toBe(getEnv().CONTACT_EMAIL);
    expect(mail.replyTo).toBe("elodie.dupre@exemple.fr");
    expect(mail.subject).toBe("[Contact] Adhésion d'un cabinet");
    expect(mail.kind).toBe("contact-page");
    for (const part of ["Élodie", "Dupré", "elodie.dupre@exemple.fr", "Dupré & Associés", "Adhésion d'un cabinet", "nous souhaitons rejoindre le réseau."]) {
      expect(mail.text).toContain(part);
    }
    // Visitor-written text is escaped in the HTML version.
    expect(mail.html).not.toContain("<script>alert(1)</script>");
    expect(mail.html).toContain("&lt;script&gt;");
  });

  it("says when no company was given", async () => {
    await createContactMessage(input({ company: undefined }));
    const [row] = await t.db!.select().from(contactMessages);
    expect(row.company).toBeNull();
    const [mail] = await t.db!.select().from(mailOutbox);
    expect(mail.text).toContain("Société\u00a0: Non renseignée");
  });

  it("stores nothing when the e-mail cannot be queued (one transaction)", async () => {
    // enqueueMail refuses a reply-to that is not an e-mail address: the insert is rolled back.
    await expect(createContactMessage(input({ email: "pas-une-adresse" }))).rejects.toThrow();
    expect(await t.db!.select().from(contactMessages)).toHaveLength(0);
    expect(await t.db!.select().from(mailOutbox)).toHaveLength(0);
  });
});

describe("contact page: route action", () => {
  type ActionArgs = Parameters<typeof action>[0];
  type Outcome = {
    status: number;
    sent: boolean;
    formErrors: string[];
    fieldErrors: Record<string, string[] | null>;
    initialValue: Record<string, unknown> | null | undefined;
  };

  const post = async (fields: Record<string, string>, ip = "203.0.113.7"): Promise<Outcome> => {
    const request = new Request("http://localhost/contact", {
      method: "POST",
      headers: { "x-rt-client-ip": ip },
      body: new URLSearchParams(fields),
    });
    const out = (await action({ request, params: {}, context: { requestId: "test" } } as unknown as ActionArgs)) as unknown;
    // data() wraps the body and status; a plain object means 200.
    const wrapped = out as { type?: string; data?: unknown; init?: { status?: number } };
    const body = (wrapped.type === "DataWithResponseInit" ? wrapped.data : out) as {
      sent: boolean;
      result: { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> | null };
    };
    const { "": formErrors, ...fieldErrors } = body.result.error ?? {};
    return {
      status: wrapped.init?.status ?? 200,
      sent: body.sent,
      formErrors: formErrors ?? [],
      fieldErrors,
      initialValue: body.result.initialValue,
    };
  };
  const valid = {
    firstName: "Paul",
    lastName: "Martin",
    email: "Paul.Martin@Exemple.fr",
    company: "",
    subject: "Question",
    message: "Bonjour, une question sur l'adhésion.",
  };

  it("sends a valid message (e-mail lower-cased, empty company stored as null)", async () => {
    const out = await post(valid);
    expect(out).toMatchObject({ status: 200, sent: true });
    const [row] = await t.db!.select().from(contactMessages);
    expect(row).toMatchObject({ email: "paul.martin@exemple.fr", company: null });
    expect(await t.db!.select().from(mailOutbox)).toHaveLength(1);
  });

  it("refuses a missing or blank required field with the spec's message and sends nothing", async () => {
    const out = await post({ ...valid, subject: "   ", message: "" });
    expect(out.status).toBe(400);
    expect(out.sent).toBe(false);
    expect(out.fieldErrors.subject).toEqual([CONTACT_MESSAGES.required]);
    expect(out.fieldErrors.message).toEqual([CONTACT_MESSAGES.required]);
    expect(await t.db!.select().from(contactMessages)).toHaveLength(0);
    expect(await t.db!.select().from(mailOutbox)).toHaveLength(0);
  });

  it("refuses an invalid e-mail and over-long fields with clear French messages", async () => {
    const out = await post({ ...valid, email: "paul@", firstName: "P".repeat(101), message: "m".repeat(5001) });
    expect(out.status).toBe(400);
    expect(out.fieldErrors.email).toEqual([CONTACT_MESSAGES.emailInvalid]);
    expect(out.fieldErrors.firstName).toEqual(["Le prénom ne doit pas dépasser 100 caractères"]);
    expect(out.fieldErrors.message).toEqual(["Le message ne doit pas dépasser 5000 caractères"]);
    expect(await t.db!.select().from(contactMessages)).toHaveLength(0);
  });

  it("reports a failure with the spec's message and keeps what was typed", async () => {
    const original = getEnv();
    // A team address the outbox refuses makes the enqueue, hence the transaction, fail.
    setEnv({ ...original, CONTACT_EMAIL: "adresse-invalide" });
    try {
      const out = await post(valid, "192.0.2.50");
      expect(out.status).toBe(500);
      expect(out.sent).toBe(false);
      expect(out.formErrors).toEqual([CONTACT_MESSAGES.failure]);
      expect(out.initialValue).toMatchObject({ firstName: "Paul", subject: "Question", message: valid.message });
    } finally {
      setEnv(original);
    }
    expect(await t.db!.select().from(contactMessages)).toHaveLength(0);
    expect(await t.db!.select().from(mailOutbox)).toHaveLength(0);
  });

  it("pretends success to a bot that fills the honeypot, and stores nothing", async () => {
    const out = await post({ ...valid, website: "https://spam.example" });
    expect(out).toMatchObject({ status: 200, sent: true });
    expect(await t.db!.select().from(contactMessages)).toHaveLength(0);
    expect(await t.db!.select().from(mailOutbox)).toHaveLength(0);
  });

  it("limits messages per IP address (429 with a French message)", async () => {
    for (let i = 0; i < 5; i++) expect((await post(valid, "198.51.100.1")).status).toBe(200);
    const limited = await post(valid, "198.51.100.1");
    expect(limited.status).toBe(429);
    expect(limited.formErrors).toEqual([CONTACT_MESSAGES.tooMany]);
    expect(await t.db!.select().from(contactMessages)).toHaveLength(5);
    // Another address is not affected.
    expect((await post(valid, "198.51.100.2")).status).toBe(200);
  });
});

describe("public profile contact: createMessage", () => {
  it("stores a public_contact message without sender and notifies the professional with a preview", async () => {
    seedFactories(11);
    const db = t.db!;
    const pro = await createMember(db, { profile: { profileStatus: "validated", notifyMessages: true } });
    await setEmailFrequency(db, [pro], "immediate", ["messages"]);
    const content = `${"Nous cherchons un conseil pour céder une PME industrielle de 40 salariés. ".repeat(3)}Merci.`;
    const created = await createMessage({
      recipientProfileId: pro.profile.id,
      senderProfileId: null,
      senderName: "Jean Visiteur",
      senderEmail: "jean.visiteur@exemple.fr",
      subject: "Cession de notre PME",
      content,
      messageType: "public_contact",
    });
    expect(created).not.toBeNull();
    const [row] = await db.select().from(messages).where(eq(messages.id, created!.id));
    expect(row).toMatchObject({
      recipientId: pro.profile.id,
      senderId: null,
      senderName: "Jean Visiteur",
      senderEmail: "jean.visiteur@exemple.fr",
      subject: "Cession de notre PME",
      content,
      messageType: "public_contact",
      isRead: false,
    });
    const mails = await db.select().from(mailOutbox);
    expect(mails).toHaveLength(1);
    expect(mails[0].toAddress).toBe(pro.email);
    expect(mails[0].subject).toContain("Cession de notre PME");
    expect(mails[0].text).toContain("Cession de notre PME");
    expect(mails[0].text).toContain(`${content.slice(0, 100)}…`);
    expect(mails[0].text).not.toContain(content.slice(0, 101));
  });

  it("does not add an ellipsis to a short message", async () => {
    const db = t.db!;
    const pro = await createMember(db, { profile: { profileStatus: "validated", notifyMessages: true } });
    await setEmailFrequency(db, [pro], "immediate", ["messages"]);
    await createMessage({
      recipientProfileId: pro.profile.id,
      senderProfileId: null,
      senderName: "Jean Visiteur",
      senderEmail: "jean.visiteur@exemple.fr",
      subject: "Bref",
      content: "Un court message.",
      messageType: "public_contact",
    });
    const [mail] = await db.select().from(mailOutbox);
    expect(mail.text).toContain("«\u00a0Un court message.\u00a0»");
  });

  it("refuses a recipient that is not validated (nothing stored, nothing sent)", async () => {
    const db = t.db!;
    const applicant = await createApplicant(db);
    const suspended = await createMember(db, { profile: { profileStatus: "suspended" } });
    for (const recipientProfileId of [applicant.profile.id, suspended.profile.id, "00000000-0000-4000-8000-000000000000"]) {
      const created = await createMessage({
        recipientProfileId,
        senderProfileId: null,
        senderName: "Jean Visiteur",
        senderEmail: "jean.visiteur@exemple.fr",
        subject: "Bonjour",
        content: "Message",
        messageType: "public_contact",
      });
      expect(created).toBeNull();
    }
    expect(await db.select().from(messages)).toHaveLength(0);
    expect(await db.select().from(mailOutbox)).toHaveLength(0);
  });
});
