import { describe, expect, it } from "vitest";
import { typographyViolations } from "~/lib/typography";
import {
  canAnswerItem,
  canAnswerQuestion,
  canCloseQuestion,
  canEditList,
  canSeeQuestion,
  ddItemPrimary,
  DD_MESSAGES,
  foundingSide,
  isOverdue,
  isValidDueDate,
  listProgress,
  mayOwnRequest,
  nextStatuses,
  statusRefusal,
  visibilitiesFor,
  type DdActor,
  type DdSide,
  type DdStatus,
  type StatusRefusal,
} from "./due-diligence-rules";
import { DD_TEMPLATES } from "./due-diligence-templates";

const seller: DdActor = { profileId: "s", side: "cedant", role: "conseil", founder: true };
const buyer: DdActor = { profileId: "b", side: "acquereur", role: "conseil", founder: true };
const notary: DdActor = { profileId: "n", side: "commun", role: "notaire", founder: false };
const bank: DdActor = { profileId: "k", side: "acquereur", role: "banque", founder: false };

describe("status transitions", () => {
  // [who, from, to, documents linked, expected refusal]
  const cases: [DdActor, DdStatus, DdStatus, number, StatusRefusal | null][] = [
    [seller, "requested", "in_progress", 0, null],
    [seller, "requested", "provided", 1, null],
    [seller, "requested", "provided", 0, "needs-document"],
    [seller, "in_progress", "provided", 2, null],
    [seller, "in_progress", "requested", 0, null],
    [seller, "requested", "not_applicable", 0, null],
    [buyer, "requested", "not_applicable", 0, null],
    [buyer, "requested", "in_progress", 0, "forbidden"],
    [buyer, "requested", "provided", 1, "forbidden"],
    [buyer, "provided", "validated", 1, null],
    [seller, "provided", "validated", 1, "forbidden"],
    [buyer, "provided", "in_progress", 1, null],
    [seller, "provided", "in_progress", 1, null],
    [seller, "provided", "not_applicable", 1, "forbidden"],
    [buyer, "validated", "provided", 1, null],
    [seller, "validated", "provided", 1, "forbidden"],
    [seller, "validated", "requested", 1, "forbidden"],
    [buyer, "not_applicable", "requested", 0, null],
    [seller, "not_applicable", "requested", 0, null],
    [buyer, "not_applicable", "validated", 0, "forbidden"],
    [seller, "requested", "requested", 0, "same"],
    [notary, "provided", "validated", 1, "forbidden"],
    [bank, "provided", "validated", 1, "forbidden"],
  ];
  it.each(cases)("%# %o: %s → %s with %i document(s): %s", (actor, from, to, documents, expected) => {
    expect(statusRefusal(actor, { status: from, documents }, to, false)).toBe(expected);
  });
  it("refuses every move on a closed file", () => {
    expect(statusRefusal(buyer, { status: "provided", documents: 1 }, "validated", true)).toBe("closed");
    expect(nextStatuses(buyer, { status: "provided", documents: 1 }, true)).toEqual([]);
  });
  it("offers the moves the table allows", () => {
    expect(nextStatuses(seller, { status: "requested", documents: 0 }, false)).toEqual(["in_progress", "not_applicable"]);
    expect(nextStatuses(seller, { status: "requested", documents: 1 }, false)).toEqual(["in_progress", "provided", "not_applicable"]);
    expect(nextStatuses(buyer, { status: "provided", documents: 1 }, false)).toEqual(["in_progress", "validated", "not_applicable"]);
  });
});

describe("who edits the list", () => {
  const cases: [Pick<DdActor, "founder" | "role">, boolean, boolean][] = [
    [seller, false, true],
    [buyer, false, true],
    [buyer, true, false],
    [{ founder: false, role: "avocat" }, false, true],
    [{ founder: false, role: "expert_comptable" }, false, true],
    [{ founder: false, role: "notaire" }, false, false],
    [{ founder: false, role: "banque" }, false, false],
    [{ founder: false, role: "autre" }, false, false],
  ];
  it.each(cases)("%# %o on a closed file %s: %s", (actor, closed, expected) => expect(canEditList(actor, closed)).toBe(expected));
  it("lets anyone but a bank answer an item", () => {
    expect(canAnswerItem(seller, false)).toBe(true);
    expect(canAnswerItem(notary, false)).toBe(true);
    expect(canAnswerItem(bank, false)).toBe(false);
    expect(canAnswerItem(seller, true)).toBe(false);
  });
});

describe("who may own a request", () => {
  const admitted = { founder: false, active: true, undertakingSigned: true, canView: true };
  const cases: [string, Parameters<typeof mayOwnRequest>[0], boolean][] = [
    ["a founder", { founder: true, role: "conseil", active: true, undertakingSigned: true, canView: true }, true],
    ["an admitted lawyer", { ...admitted, role: "avocat" }, true],
    ["an admitted chartered accountant", { ...admitted, role: "expert_comptable" }, true],
    ["an admitted notary", { ...admitted, role: "notaire" }, true],
    ["an admitted adviser", { ...admitted, role: "conseil" }, true],
    ["an admitted other", { ...admitted, role: "autre" }, true],
    ["a bank", { ...admitted, role: "banque" }, false],
    ["a participant before their undertaking", { ...admitted, role: "avocat", undertakingSigned: false }, false],
    ["a participant without « voir »", { ...admitted, role: "avocat", canView: false }, false],
    ["a participant no longer active (removed, awaiting approval)", { ...admitted, role: "avocat", active: false }, false],
  ];
  it.each(cases)("%s: %s", (_name, candidate, expected) => expect(mayOwnRequest(candidate)).toBe(expected));
});

describe("questions by side", () => {
  const sees: [DdSide, DdSide, boolean][] = [
    ["cedant", "commun", true],
    ["acquereur", "commun", true],
    ["commun", "commun", true],
    ["cedant", "cedant", true],
    ["acquereur", "cedant", false],
    ["commun", "cedant", false],
    ["cedant", "acquereur", false],
    ["acquereur", "acquereur", true],
  ];
  it.each(sees)("%# a %s viewer sees a %s question: %s", (viewer, visibility, expected) => expect(canSeeQuestion(viewer, visibility)).toBe(expected));
  it("offers an asker their own side or both", () => {
    expect(visibilitiesFor("cedant")).toEqual(["commun", "cedant"]);
    expect(visibilitiesFor("acquereur")).toEqual(["commun", "acquereur"]);
    expect(visibilitiesFor("commun")).toEqual(["commun"]);
  });
  const answer: [string, DdActor, { askedBy: string | null; visibility: DdSide; status: "open" | "answered" | "closed" }, boolean, boolean][] = [
    ["the other side answers a common question", seller, { askedBy: "b", visibility: "commun", status: "open" }, false, true],
    ["the asker does not answer their own", buyer, { askedBy: "b", visibility: "commun", status: "open" }, false, false],
    ["nobody answers an answered one", seller, { askedBy: "b", visibility: "commun", status: "answered" }, false, false],
    ["nobody answers a closed one", seller, { askedBy: "b", visibility: "commun", status: "closed" }, false, false],
    ["the other side cannot answer what it does not see", seller, { askedBy: "x", visibility: "acquereur", status: "open" }, false, false],
    ["a colleague of the side answers", buyer, { askedBy: "x", visibility: "acquereur", status: "open" }, false, true],
    ["a closed file takes no answer", seller, { askedBy: "b", visibility: "commun", status: "open" }, true, false],
  ];
  it.each(answer)("%s", (_, actor, q, closed, expected) => expect(canAnswerQuestion(actor, q, closed)).toBe(expected));
  const close: [string, DdActor, { askedBy: string | null; visibility: DdSide; status: "open" | "answered" | "closed" }, boolean][] = [
    ["the asker closes", { ...notary }, { askedBy: "n", visibility: "commun", status: "answered" }, true],
    ["a founder closes", seller, { askedBy: "b", visibility: "commun", status: "answered" }, true],
    ["another participant does not", notary, { askedBy: "b", visibility: "commun", status: "open" }, false],
    ["a founder does not close what they do not see", seller, { askedBy: "b", visibility: "acquereur", status: "open" }, false],
    ["a closed question stays closed", buyer, { askedBy: "b", visibility: "commun", status: "closed" }, false],
  ];
  it.each(close)("%s", (_, actor, q, expected) => expect(canCloseQuestion(actor, q, false)).toBe(expected));
});

describe("progress, dates, sides", () => {
  const progress: [DdStatus[], number, number, string][] = [
    [[], 0, 0, "0\u00a0/\u00a00 fourni ou validé"],
    [["requested", "provided"], 1, 2, "1\u00a0/\u00a02 fourni ou validé"],
    [["validated", "provided", "in_progress", "not_applicable"], 2, 3, "2\u00a0/\u00a03 fournis ou validés"],
    [["not_applicable"], 0, 0, "0\u00a0/\u00a00 fourni ou validé"],
  ];
  it.each(progress)("%# %o → %i / %i", (statuses, done, total, label) => expect(listProgress(statuses)).toEqual({ done, total, label }));
  const dates: [string, boolean][] = [
    ["2026-12-31", true],
    ["2026-02-30", false],
    ["1999-12-31", false],
    ["2101-01-01", false],
    ["31/12/2026", false],
    ["", false],
  ];
  it.each(dates)("%# due date %s valid: %s", (value, expected) => expect(isValidDueDate(value)).toBe(expected));
  it("marks as overdue only what still waits", () => {
    expect(isOverdue({ status: "requested", dueDate: "2026-01-01" }, "2026-02-01")).toBe(true);
    expect(isOverdue({ status: "provided", dueDate: "2026-01-01" }, "2026-02-01")).toBe(false);
    expect(isOverdue({ status: "in_progress", dueDate: "2026-02-01" }, "2026-02-01")).toBe(false);
    expect(isOverdue({ status: "requested", dueDate: null }, "2026-02-01")).toBe(false);
  });
  const sides: [Parameters<typeof foundingSide>[0], DdSide][] = [
    [{ mine: "seller", theirs: "buyer", agreementSellerSide: null, mySide: "a" }, "cedant"],
    [{ mine: "buyer", theirs: "seller", agreementSellerSide: null, mySide: "b" }, "acquereur"],
    [{ mine: null, theirs: "seller", agreementSellerSide: null, mySide: "a" }, "acquereur"],
    [{ mine: null, theirs: "buyer", agreementSellerSide: null, mySide: "a" }, "cedant"],
    [{ mine: null, theirs: null, agreementSellerSide: "a", mySide: "a" }, "cedant"],
    [{ mine: null, theirs: null, agreementSellerSide: "a", mySide: "b" }, "acquereur"],
    [{ mine: "seller", theirs: "seller", agreementSellerSide: "b", mySide: "a" }, "acquereur"],
    [{ mine: null, theirs: null, agreementSellerSide: null, mySide: "a" }, "commun"],
  ];
  it.each(sides)("%# %o → %s", (input, expected) => expect(foundingSide(input)).toBe(expected));
});

describe("texts", () => {
  it("writes every message and template item in French typography", () => {
    const texts = [...Object.values(DD_MESSAGES), ...Object.values(DD_TEMPLATES).flatMap((items) => items.map((i) => i.title))];
    for (const text of texts) expect(typographyViolations(text), text).toEqual([]);
  });
  it("gives every operation type a list covering the six categories but lease management's staff", () => {
    for (const [type, items] of Object.entries(DD_TEMPLATES)) {
      expect(new Set(items.map((i) => i.category)).size, type).toBe(6);
      expect(items.length, type).toBeGreaterThanOrEqual(20);
    }
  });
});

describe("a request page's one primary action", () => {
  const cases: Array<[string, Parameters<typeof ddItemPrimary>[0], ReturnType<typeof ddItemPrimary>]> = [
    ["a question to answer comes first", { questionToAnswer: true, canAnswerRequest: true, canAsk: true }, "answer-question"],
    ["then the document the request asks of the reader's side", { questionToAnswer: false, canAnswerRequest: true, canAsk: true }, "answer-request"],
    ["then a question to ask", { questionToAnswer: false, canAnswerRequest: false, canAsk: true }, "ask"],
    ["a closed list: nothing", { questionToAnswer: false, canAnswerRequest: false, canAsk: false }, null],
  ];
  it.each(cases)("%s", (_, input, expected) => {
    expect(ddItemPrimary(input)).toBe(expected);
  });
});
