import { describe, expect, it } from "vitest";
import { fieldErrors, firstFormError } from "./form-errors";

describe("form errors", () => {
  it.each([
    [undefined, {}, "Formulaire invalide"],
    [null, {}, "Formulaire invalide"],
    [{}, {}, "Formulaire invalide"],
    [{ subject: null, facts: [] }, {}, "Formulaire invalide"],
    [{ subject: ["Objet trop court"], facts: null }, { subject: ["Objet trop court"] }, "Objet trop court"],
    [{ subject: ["A", "B"], facts: ["C"] }, { subject: ["A", "B"], facts: ["C"] }, "A"],
  ])("%j → fields %j, first %s", (error, fields, first) => {
    expect(fieldErrors(error)).toEqual(fields);
    expect(firstFormError(error)).toBe(first);
  });

  it("uses the given fallback", () => {
    expect(firstFormError({}, "Veuillez remplir tous les champs")).toBe("Veuillez remplir tous les champs");
  });
});
