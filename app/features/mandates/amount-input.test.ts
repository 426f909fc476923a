import { describe, expect, it } from "vitest";
import { parseAmount } from "./mandate-rules";
import { caretAfterDigits, digitsBefore, formatAmountInput } from "./amount-input";

const nnbsp = "\u202f";

describe("formatAmountInput", () => {
  it.each([
    ["", "", ""],
    ["0", "0", "0"],
    ["000", "0", "0"],
    ["007", "7", "7"],
    ["999", "999", "999"],
    ["1000", `1${nnbsp}000`, "1000"],
    ["500000", `500${nnbsp}000`, "500000"],
    ["1234567", `1${nnbsp}234${nnbsp}567`, "1234567"],
    ["1 234 567", `1${nnbsp}234${nnbsp}567`, "1234567"],
    [`1${nnbsp}234${nnbsp}567 €`, `1${nnbsp}234${nnbsp}567`, "1234567"],
    ["1.234.567", `1${nnbsp}234${nnbsp}567`, "1234567"],
    ["abc", "", ""],
    ["12a3", "123", "123"],
    ["-500", "500", "500"],
  ])("%j → shows %j, submits %j", (raw, display, value) => {
    expect(formatAmountInput(raw)).toEqual({ display, value });
  });

  it("formats a stored number, and nothing for null", () => {
    expect(formatAmountInput(2_000_000)).toEqual({ display: `2${nnbsp}000${nnbsp}000`, value: "2000000" });
    expect(formatAmountInput(null)).toEqual({ display: "", value: "" });
  });

  it("writes what Intl fr-FR writes, and the server reads back the submitted value", () => {
    const intl = new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 0 });
    for (const n of [0, 7, 999, 1000, 12_345, 500_000, 1_234_567, 987_654_321_000]) {
      const state = formatAmountInput(String(n));
      expect(state.display).toBe(intl.format(n));
      expect(parseAmount(state.value)).toEqual({ ok: true, value: n });
      // The display itself parses too (a form sent before JavaScript runs).
      expect(parseAmount(state.display)).toEqual({ ok: true, value: n });
    }
  });
});

describe("caret", () => {
  it.each([
    [`1${nnbsp}234`, 0, 0],
    [`1${nnbsp}234`, 1, 1],
    [`1${nnbsp}234`, 2, 3],
    [`1${nnbsp}234`, 4, 5],
    [`1${nnbsp}234`, 9, 5],
  ])("in %j after %i digits → %i", (display, count, caret) => {
    expect(caretAfterDigits(display, count)).toBe(caret);
  });

  it("counts the digits before the caret", () => {
    expect(digitsBefore(`12${nnbsp}345`, 4)).toBe(3);
    expect(digitsBefore("", 0)).toBe(0);
  });
});
