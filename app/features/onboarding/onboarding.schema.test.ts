import { describe, expect, it } from "vitest";
import { ONBOARDING_MESSAGES, sponsorsSchema } from "./onboarding.schema";

const valid = { sponsor1Name: " Jean Dupont ", sponsor1Email: " Jean.Dupont@Cabinet.FR ", sponsor2Name: "Marie Curie", sponsor2Email: "marie@etude.fr" };

describe("sponsorsSchema", () => {
  it("trims names, trims and lower-cases e-mails", () => {
    const r = sponsorsSchema("moi@exemple.fr").safeParse(valid);
    expect(r.success).toBe(true);
    expect(r.data).toEqual([
      { name: "Jean Dupont", email: "jean.dupont@cabinet.fr" },
      { name: "Marie Curie", email: "marie@etude.fr" },
    ]);
  });

  it.each([
    [{ ...valid, sponsor2Name: "" }, ONBOARDING_MESSAGES.sponsorsMissing],
    [{ ...valid, sponsor1Email: "   " }, ONBOARDING_MESSAGES.sponsorsMissing],
    [{ sponsor1Name: "A", sponsor1Email: "a@b.fr" }, ONBOARDING_MESSAGES.sponsorsMissing],
    [{}, ONBOARDING_MESSAGES.sponsorsMissing],
    [{ ...valid, sponsor1Email: "jean.dupont" }, 'L\'adresse email "jean.dupont" n\'est pas valide'],
    [{ ...valid, sponsor2Email: "marie@etude" }, 'L\'adresse email "marie@etude" n\'est pas valide'],
    [{ ...valid, sponsor2Email: "ma rie@etude.fr" }, 'L\'adresse email "ma rie@etude.fr" n\'est pas valide'],
    // Valid for RFC 5322 but refused by the outbox: the form says so.
    [{ ...valid, sponsor2Email: '"eve"@domaine.fr' }, 'L\'adresse email ""eve"@domaine.fr" n\'est pas valide'],
    [{ ...valid, sponsor2Email: "eve(x)@domaine.fr" }, 'L\'adresse email "eve(x)@domaine.fr" n\'est pas valide'],
    [{ ...valid, sponsor2Email: "JEAN.DUPONT@cabinet.fr" }, ONBOARDING_MESSAGES.sponsorsSame],
    [{ ...valid, sponsor2Email: "Moi@Exemple.fr" }, ONBOARDING_MESSAGES.sponsorSelf],
  ])("%o → %s", (input, message) => {
    const r = sponsorsSchema("moi@exemple.fr").safeParse(input);
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].message).toBe(message);
  });
});
