import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailOutbox } from "~/db/schema";
import {
  notification,
  renderEmail,
  resetPassword,
  sendNotificationEmail,
  sendResetPasswordEmail,
  sendVerificationEmail,
  verifyEmail,
} from "~/lib/mail/render.server";
import { useTestDatabase } from "../../support/db";

const t = useTestDatabase();

const ctx = { appName: "Réseau Transmission", appUrl: "https://reseau.exemple.fr" };
const url = "https://reseau.exemple.fr/api/auth/verify-email?token=abc.def&callbackURL=%2Fonboarding";
// React escapes "&" in attributes and text.
const urlInHtml = url.replace(/&/g, "&amp;");

describe("renderEmail", () => {
  it("verification e-mail: subject, link in both versions, layout", () => {
    const mail = renderEmail(verifyEmail, { url }, ctx);
    expect(mail.subject).toBe("Confirmez votre adresse e-mail");
    expect(mail.html.startsWith("<!DOCTYPE html><html lang=\"fr\">")).toBe(true);
    expect(mail.html).toContain(`href="${urlInHtml}"`);
    expect(mail.html).toContain("Confirmer mon adresse e-mail");
    expect(mail.html).toContain("Réseau Transmission");
    expect(mail.html).toContain("Vous recevez cet e-mail car");
    expect(mail.html).not.toMatch(/<style|<script|class=/);
    expect(mail.text).toContain(url);
    expect(mail.text).toContain("Vous recevez cet e-mail car");
    expect(mail.text).toContain("https://reseau.exemple.fr");
    expect(mail.text).not.toMatch(/<[a-z]/i);
  });

  it("password reset e-mail", () => {
    const resetUrl = "https://reseau.exemple.fr/auth/nouveau-mot-de-passe?token=xyz";
    const mail = renderEmail(resetPassword, { url: resetUrl }, ctx);
    expect(mail.subject).toBe("Réinitialisation de votre mot de passe");
    expect(mail.html).toContain(`href="${resetUrl}"`);
    expect(mail.html).toContain("Choisir un nouveau mot de passe");
    expect(mail.text).toContain(resetUrl);
    expect(mail.text).toContain("votre mot de passe actuel reste inchangé");
  });

  it("notification escapes user content in HTML and keeps it readable in text", () => {
    const mail = renderEmail(
      notification,
      {
        title: "Nouveau message de <b>Jean</b>",
        intro: 'Jean & Fils vous écrit : <script>alert("x")</script>',
        lines: ["Ligne <img src=x onerror=alert(1)>", "Deuxième ligne"],
        ctaLabel: "Lire le message",
        ctaUrl: "https://reseau.exemple.fr/dashboard?tab=messages&id=1",
        footer: "Vous recevez cet e-mail car un membre vous a contacté.",
      },
      ctx,
    );
    expect(mail.subject).toBe("Nouveau message de <b>Jean</b>");
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toContain("<b>Jean</b>");
    expect(mail.html).not.toContain("<img");
    expect(mail.html).toContain("&lt;script&gt;");
    expect(mail.html).toContain("Jean &amp; Fils");
    expect(mail.html).toContain('href="https://reseau.exemple.fr/dashboard?tab=messages&amp;id=1"');
    expect(mail.html).toContain("Vous recevez cet e-mail car un membre vous a contacté.");
    expect(mail.text).toContain('Jean & Fils vous écrit : <script>alert("x")</script>');
    expect(mail.text).toContain("Lire le message\u00a0: https://reseau.exemple.fr/dashboard?tab=messages&id=1");
    expect(mail.text).toContain("Deuxième ligne");
  });

  it("notification without call to action, with the default footer", () => {
    const mail = renderEmail(notification, { title: "Profil validé", intro: "Bienvenue." }, ctx);
    expect(mail.html).not.toContain("Si le bouton ne fonctionne pas");
    expect(mail.html).toContain("Vous recevez cet e-mail car vous êtes inscrit sur Réseau Transmission.");
  });

  it("refuses links that are not absolute http(s) URLs", () => {
    expect(() => renderEmail(verifyEmail, { url: "javascript:alert(1)" }, ctx)).toThrow();
    expect(() => renderEmail(notification, { title: "x", intro: "y", ctaLabel: "Go", ctaUrl: "/relative" }, ctx)).toThrow();
  });
});

describe("send helpers", () => {
  it("enqueue rendered e-mails with their kind", async () => {
    const verifyId = await sendVerificationEmail("nouveau@exemple.fr", url);
    const resetId = await sendResetPasswordEmail("nouveau@exemple.fr", "https://reseau.exemple.fr/r?token=1");
    const notifId = await sendNotificationEmail(
      "membre@exemple.fr",
      { title: "Mise en relation confirmée", intro: "Bonne nouvelle." },
      { kind: "match-accepted", dedupeKey: "match:1:accepted", replyTo: "contact@exemple.fr" },
    );
    expect(await sendNotificationEmail("membre@exemple.fr", { title: "x", intro: "y" }, { dedupeKey: "match:1:accepted" })).toBeNull();

    const [v] = await t.db!.select().from(mailOutbox).where(eq(mailOutbox.id, verifyId!));
    expect(v).toMatchObject({ toAddress: "nouveau@exemple.fr", kind: "verify-email", subject: "Confirmez votre adresse e-mail", status: "pending" });
    expect(v.html).toContain(urlInHtml);
    expect(v.text).toContain(url);
    const [r] = await t.db!.select().from(mailOutbox).where(eq(mailOutbox.id, resetId!));
    expect(r).toMatchObject({ kind: "reset-password", subject: "Réinitialisation de votre mot de passe" });
    const [n] = await t.db!.select().from(mailOutbox).where(eq(mailOutbox.id, notifId!));
    expect(n).toMatchObject({ kind: "match-accepted", replyTo: "contact@exemple.fr", subject: "Mise en relation confirmée" });
  });
});
