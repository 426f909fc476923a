// Issue 16, the edges of joining: an expired or invalid e-mail confirmation link says what happened. better-auth sends
// it back to its callback (/onboarding?error=TOKEN_EXPIRED|INVALID_TOKEN); signed out, that page
// sends the visitor to /auth?lien=…, which explains and tells how to get a new link.
import { describe, expect, it } from "vitest";
import { loader as onboardingLoader } from "~/routes/member/onboarding";
import { loader as authLoader } from "~/routes/public/auth";
import { useTestDatabase } from "../support/db";

useTestDatabase();

const call = async (loader: (args: never) => unknown, url: string) => {
  try {
    return { value: await loader({ request: new Request(url), params: {}, context: { requestId: "t" } } as never) };
  } catch (thrown) {
    return { thrown };
  }
};

describe("failed confirmation links", () => {
  it.each([
    ["TOKEN_EXPIRED", "/auth?lien=expire"],
    ["INVALID_TOKEN", "/auth?lien=invalide"],
    ["anything", "/auth?lien=invalide"],
  ])("?error=%s sends a signed-out visitor to %s", async (error, location) => {
    const { thrown } = await call(onboardingLoader, `http://localhost:3000/onboarding?error=${error}`);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("location")).toBe(location);
  });

  it("without an error, a signed-out visitor goes to /auth as before", async () => {
    const { thrown } = await call(onboardingLoader, "http://localhost:3000/onboarding");
    expect((thrown as Response).headers.get("location")).toBe("/auth");
  });

  it("the sign-in page knows which message to show, and ignores anything else", async () => {
    expect(((await call(authLoader, "http://localhost:3000/auth?lien=expire")).value as { link: string }).link).toBe("expire");
    expect(((await call(authLoader, "http://localhost:3000/auth?lien=invalide")).value as { link: string }).link).toBe("invalide");
    expect(((await call(authLoader, "http://localhost:3000/auth?lien=<script>")).value as { link: string | null }).link).toBeNull();
  });
});

describe("an administrator without a member profile (issue 16)", () => {
  it("goes to the two-factor enrolment, then to /admin, never to the member onboarding form", async () => {
    const { createMember } = await import("../support/factories");
    const { profiles, user } = await import("~/db/schema");
    const { eq } = await import("drizzle-orm");
    const { getAuth } = await import("~/auth/auth.server");
    const { getDatabase } = await import("~/db/client.server");
    const db = getDatabase().db;
    const admin = await createMember(db, { admin: true });
    await db.delete(profiles).where(eq(profiles.id, admin.profile.id));
    const { headers } = await getAuth().api.signInEmail({ body: { email: admin.email, password: admin.password }, headers: new Headers(), returnHeaders: true });
    const cookie = headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const visit = async () => {
      try {
        await onboardingLoader({ request: new Request("http://localhost:3000/onboarding", { headers: { cookie } }), params: {}, context: {} } as never);
        return null;
      } catch (thrown) {
        return (thrown as Response).headers.get("location");
      }
    };
    expect(await visit()).toBe("/parametres/securite?admin=1");
    await db.update(user).set({ twoFactorEnabled: true }).where(eq(user.id, admin.user.id));
    expect(await visit()).toBe("/admin");
  });
});

describe("back from the checkout before the webhook (issue 16)", () => {
  it("shows 'paiement en cours de confirmation' while the payment is pending, the payment choice otherwise", async () => {
    const { createMember } = await import("../support/factories");
    const { payments } = await import("~/db/schema");
    const { getAuth } = await import("~/auth/auth.server");
    const { getDatabase } = await import("~/db/client.server");
    const db = getDatabase().db;
    const m = await createMember(db, { profile: { profileStatus: "pending_validation", onboardingStatus: "recommendations_pending", membershipType: "freemium" } });
    const { headers } = await getAuth().api.signInEmail({ body: { email: m.email, password: m.password }, headers: new Headers(), returnHeaders: true });
    const cookie = headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const load = async (path: string) =>
      (await onboardingLoader({ request: new Request(`http://localhost:3000${path}`, { headers: { cookie } }), params: {}, context: {} } as never)) as {
        step: string;
        paymentConfirming: boolean;
      };
    // The provider sends the member back here: a redirect that keeps the confirmation state.
    try {
      await onboardingLoader({ request: new Request("http://localhost:3000/onboarding?payment=success", { headers: { cookie } }), params: {}, context: {} } as never);
      throw new Error("expected a redirect");
    } catch (thrown) {
      expect((thrown as Response).headers.get("location")).toBe("/onboarding?paiement=confirmation");
    }
    expect(await load("/onboarding?paiement=confirmation")).toMatchObject({ step: "payment", paymentConfirming: false });
    await db.insert(payments).values({ profileId: m.profile.id, provider: "local", checkoutSessionId: `cs_${m.profile.id}`, amountCents: 25000, status: "pending" });
    expect(await load("/onboarding?paiement=confirmation")).toMatchObject({ step: "payment", paymentConfirming: true });
    expect(await load("/onboarding")).toMatchObject({ paymentConfirming: false });
  });
});
