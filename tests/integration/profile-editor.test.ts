// The profile tab (spec §2 "Profile tab", §5 "Profile save", §6): editable fields, the
// department rule, premium-only fields refused from freemium members, search_text kept in step.
import { parseWithZod } from "@conform-to/zod/v4";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { profiles } from "~/db/schema";
import { profileSearchText } from "~/db/search-text";
import { memberActor } from "~/auth/actor";
import { getProfileEditor, updateOwnProfile } from "~/features/profiles/profile-editor.server";
import { PROFILE_MESSAGES, profileEditorSchema, type ProfileEditorInput } from "~/features/profiles/profile.schema";
import { getEnv, setEnv } from "~/lib/env.server";
import { action, loader } from "~/routes/member/dashboard/profile";
import { createMember, type CreatedMember, type NewProfile } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { sessionCookie } from "../support/session";

const t = useTestDatabase();

beforeAll(() => {
  setEnv({ ...getEnv(), BETTER_AUTH_SECRET: "test-secret-for-profile-tests-0123456789abcdef" });
});

type Tier = "premium" | "founding_member" | "freemium";

async function member(membershipType: Tier, overrides: Partial<NewProfile> = {}) {
  return createMember(t.db!, {
    profile: {
      membershipType,
      profileStatus: "validated",
      onboardingStatus: "validated",
      firstName: "Hélène",
      lastName: "Lefèvre",
      company: "Lefèvre Transmission",
      profession: "conseil_ma",
      detailedPresentation: "Présentation publique d'origine",
      internalPresentation: "Présentation interne d'origine",
      specializationSectors: ["C"],
      ...overrides,
    },
  });
}

async function profileOf(m: CreatedMember) {
  const [p] = await t.db!.select().from(profiles).where(eq(profiles.id, m.profile.id));
  return p;
}

function form(values: Record<string, string | string[]>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(values)) for (const item of Array.isArray(v) ? v : [v]) fd.append(k, item);
  return fd;
}

const parse = (values: Record<string, string | string[]>) => parseWithZod(form(values), { schema: profileEditorSchema });
const errorsOf = (submission: ReturnType<typeof parse>) => (submission.status === "error" ? submission.error : undefined);

const input = (overrides: Partial<ProfileEditorInput> = {}): ProfileEditorInput => ({
  locationDepartment: "69",
  locationCity: "Lyon",
  fullAddress: "12 rue de la République, 69002 Lyon",
  specializationSectors: ["G", "I"],
  ...overrides,
});

type Args = Parameters<typeof action>[0];
const routeArgs = (request: Request) => ({ request, params: {}, context: { requestId: "test", nonce: "" } }) as unknown as Args;

async function postProfile(m: CreatedMember, values: Record<string, string | string[]>) {
  const request = new Request("http://localhost:3000/dashboard/profil", {
    method: "POST",
    body: form({ intent: "profile", ...values }),
    headers: { cookie: await sessionCookie(m) },
  });
  return action(routeArgs(request));
}

function statusOf(result: unknown): number {
  if (result instanceof Response) return result.status;
  return (result as { init?: { status?: number } | null }).init?.status ?? 200;
}

describe("profile form schema", () => {
  it("requires the department, with the message of the form", () => {
    const cases: Record<string, string>[] = [{}, { locationDepartment: "" }, { locationDepartment: "20" }, { locationDepartment: "Paris" }];
    for (const values of cases) {
      const submission = parse(values);
      expect(submission.status).toBe("error");
      expect(errorsOf(submission)?.locationDepartment).toEqual([PROFILE_MESSAGES.department]);
    }
    expect(PROFILE_MESSAGES.department).toBe("Veuillez sélectionner un département");
  });

  it("accepts any department of the list, Corsica and overseas included", () => {
    for (const code of ["01", "2A", "2B", "75", "95", "971", "976"]) expect(parse({ locationDepartment: code }).status).toBe("success");
  });

  it("reads one or several sectors, dropping duplicates, and refuses unknown codes", () => {
    const one = parse({ locationDepartment: "75", specializationSectors: "C" });
    expect(one.status === "success" && one.value.specializationSectors).toEqual(["C"]);
    const none = parse({ locationDepartment: "75" });
    expect(none.status === "success" && none.value.specializationSectors).toEqual([]);
    const dup = parse({ locationDepartment: "75", specializationSectors: ["C", "G", "C"] });
    expect(dup.status === "success" && dup.value.specializationSectors).toEqual(["C", "G"]);
    expect(parse({ locationDepartment: "75", specializationSectors: ["C", "Z"] }).status).toBe("error");
  });

  it("ignores identity fields sent with the form", () => {
    const submission = parse({ locationDepartment: "75", firstName: "Pirate", company: "Autre", college: "transmission_commerces" });
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && Object.keys(submission.value)).not.toContain("firstName");
  });

  it("trims text and turns blanks into nothing", () => {
    const submission = parse({ locationDepartment: "75", locationCity: "  Paris  ", fullAddress: "   " });
    expect(submission.status === "success" && submission.value).toMatchObject({ locationCity: "Paris", fullAddress: undefined });
  });
});

describe("getProfileEditor", () => {
  it("gives a premium member every field, with labels for the read-only ones", async () => {
    const m = await member("premium");
    const editor = await getProfileEditor(memberActor(m.profile));
    expect(editor).toMatchObject({
      firstName: "Hélène",
      lastName: "Lefèvre",
      company: "Lefèvre Transmission",
      profession: "conseil_ma",
      membershipType: "premium",
      premium: true,
      detailedPresentation: "Présentation publique d'origine",
      internalPresentation: "Présentation interne d'origine",
    });
    expect(editor?.professionLabel).not.toBe("conseil_ma");
    expect(Object.keys(editor ?? {})).not.toContain("userId");
  });

  it("hides premium-only fields from a freemium member", async () => {
    const m = await member("freemium", { logoUrl: "/uploads/x/1-a.webp" });
    const editor = await getProfileEditor(memberActor(m.profile));
    expect(editor).toMatchObject({ premium: false, membershipType: "freemium", detailedPresentation: null, internalPresentation: null, logoUrl: null });
  });

  it("returns null when the actor has no profile", async () => {
    expect(await getProfileEditor({ userId: "nobody", profileId: "00000000-0000-4000-8000-000000000000", membershipType: "premium" })).toBeNull();
  });
});

describe("updateOwnProfile", () => {
  it("saves the editable fields, recomputes search_text and sets updated_at", async () => {
    const m = await member("premium");
    const before = await profileOf(m);
    await updateOwnProfile(memberActor(m.profile), input({ detailedPresentation: "Nouvelle présentation", internalPresentation: undefined }));
    const after = await profileOf(m);
    expect(after).toMatchObject({
      locationDepartment: "69",
      locationCity: "Lyon",
      fullAddress: "12 rue de la République, 69002 Lyon",
      specializationSectors: ["G", "I"],
      detailedPresentation: "Nouvelle présentation",
      // A premium member's form always carries both fields: blank clears.
      internalPresentation: null,
      firstName: "Hélène",
      company: "Lefèvre Transmission",
    });
    expect(after.searchText).toBe(profileSearchText(after));
    expect(after.searchText).toContain("hebergement et restauration");
    expect(after.searchText).not.toContain("industrie manufacturiere");
    expect(after.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
  });

  it("lets a freemium member edit department, city, address and sectors", async () => {
    const m = await member("freemium");
    await updateOwnProfile(memberActor(m.profile), input({ locationCity: undefined }));
    const after = await profileOf(m);
    expect(after).toMatchObject({ locationDepartment: "69", locationCity: null, specializationSectors: ["G", "I"] });
    // Premium fields stored earlier stay as they were (they are simply not shown).
    expect(after.detailedPresentation).toBe("Présentation publique d'origine");
    expect(after.searchText).toBe(profileSearchText(after));
  });

  it("refuses premium-only fields from a freemium member with 403, saving nothing", async () => {
    const m = await member("freemium", { locationCity: "Nantes" });
    for (const extra of [{ detailedPresentation: "Je triche" }, { internalPresentation: "Moi aussi" }]) {
      await expect(updateOwnProfile(memberActor(m.profile), input(extra))).rejects.toMatchObject({ code: "forbidden" });
    }
    const after = await profileOf(m);
    expect(after.locationCity).toBe("Nantes");
    expect(after.detailedPresentation).toBe("Présentation publique d'origine");
    expect(after.internalPresentation).toBe("Présentation interne d'origine");
  });

  it("decides the tier from the stored profile, not from the actor", async () => {
    const m = await member("freemium");
    const forged = { ...memberActor(m.profile), membershipType: "premium" };
    await expect(updateOwnProfile(forged, input({ detailedPresentation: "x" }))).rejects.toMatchObject({ code: "forbidden" });
  });

  it("only ever writes the actor's own profile", async () => {
    const me = await member("premium");
    const other = await member("premium", { locationCity: "Brest" });
    await updateOwnProfile(memberActor(me.profile), input({ locationCity: "Lille" }));
    expect((await profileOf(other)).locationCity).toBe("Brest");
    expect((await profileOf(me)).locationCity).toBe("Lille");
  });
});

describe("profile tab route", () => {
  it("loads the editor for the signed-in member", async () => {
    const m = await member("founding_member");
    const request = new Request("http://localhost:3000/dashboard/profil", { headers: { cookie: await sessionCookie(m) } });
    const data = await loader(routeArgs(request) as unknown as Parameters<typeof loader>[0]);
    expect(data.state).toBe("ready");
    expect(data.state === "ready" && data.profile.premium).toBe(true);
    expect(data.state === "ready" && data.years).toHaveLength(20);
  });

  it("saves and redirects with the success toast", async () => {
    const m = await member("premium");
    const result = await postProfile(m, { locationDepartment: "33", locationCity: "Bordeaux", specializationSectors: ["F", "L"], detailedPresentation: "Bonjour", internalPresentation: "" });
    expect(statusOf(result)).toBe(302);
    expect((result as Response).headers.get("location")).toBe("/dashboard/profil");
    expect((await profileOf(m)).specializationSectors).toEqual(["F", "L"]);
  });

  it("answers 400 with the department message when it is missing", async () => {
    const m = await member("premium");
    const result = await postProfile(m, { locationCity: "Bordeaux" });
    expect(statusOf(result)).toBe(400);
    expect(JSON.stringify((result as { data: unknown }).data)).toContain(PROFILE_MESSAGES.department);
  });

  it("answers 403 to a freemium member posting a premium-only field", async () => {
    const m = await member("freemium", { locationCity: "Nantes" });
    const result = await postProfile(m, { locationDepartment: "44", locationCity: "Saint-Nazaire", detailedPresentation: "Je triche" });
    expect(statusOf(result)).toBe(403);
    expect((await profileOf(m)).locationCity).toBe("Nantes");
  });
});
