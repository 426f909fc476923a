import { describe, expect, it } from "vitest";
import { actionVariant, fileNextAction, type FileAction, type NextActionInput } from "./next-action-rules";

const base: NextActionInput = {
  stage: "exchanges",
  undertakingToSign: false,
  closing: { proposedByMe: false, proposedByThem: false },
  myMandateCommands: [],
  dealProposable: false,
  canWrite: true,
};

const cases: Array<[string, Partial<NextActionInput>, FileAction | null]> = [
  ["the undertaking to sign comes before everything", { undertakingToSign: true, stage: "offer", closing: { proposedByMe: false, proposedByThem: true } }, "undertaking"],
  ["a closing the other member proposed is confirmed first", { stage: "offer", closing: { proposedByMe: false, proposedByThem: true }, myMandateCommands: ["negotiate"] }, "confirm-closing"],
  ["an offer under way: the mandate goes into negotiation", { stage: "offer", myMandateCommands: ["negotiate"] }, "negotiate"],
  ["a working stage with a next one: move on", { stage: "introduction" }, "move"],
  ["the offer stage, mandate already negotiating: move on", { stage: "offer", myMandateCommands: ["resume"] }, "move"],
  ["the last working stage: propose the closing", { stage: "protocol" }, "propose-closing"],
  ["the last working stage, closing proposed by me: write", { stage: "protocol", closing: { proposedByMe: true, proposedByThem: false } }, "message"],
  ["a concluded file a Premium member may propose as a deal", { stage: "concluded", dealProposable: true, myMandateCommands: ["conclude"] }, "propose-deal"],
  ["a concluded file, deal proposed: write", { stage: "concluded", myMandateCommands: ["conclude"] }, "message"],
  ["an abandoned file: write", { stage: "abandoned", myMandateCommands: ["resume"] }, "message"],
  ["an abandoned file whose counterpart left: nothing", { stage: "abandoned", canWrite: false }, null],
  ["a concluded file never confirms a closing again", { stage: "concluded", closing: { proposedByMe: false, proposedByThem: true } }, "message"],
];

describe("the file's one primary action", () => {
  it.each(cases)("%s", (_, input, expected) => {
    expect(fileNextAction({ ...base, ...input })).toBe(expected);
  });

  it("makes the primary action default and the others outline", () => {
    expect(actionVariant("move", "move")).toBe("default");
    expect(actionVariant("move", "message")).toBe("outline");
    expect(actionVariant(null, "message")).toBe("outline");
  });
});
