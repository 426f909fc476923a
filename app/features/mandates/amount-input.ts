// Amount fields of the mandate form: what the member types is shown with French
// thousands separators (a narrow no-break space, as Intl fr-FR writes them), while the value
// submitted stays a plain integer that the server's `parseAmount` reads.

/** U+202F, the group separator of Intl.NumberFormat("fr-FR"). */
export const GROUP_SEPARATOR = "\u202f";

export type AmountInputState = {
  /** What the visible field shows: '1 234 567' (no € sign: it sits beside the field). */
  display: string;
  /** What is submitted: '1234567', or '' when nothing is typed. */
  value: string;
};

/** The digits typed, without leading zeros ('007' → '7', '000' → '0'). */
function digitsOf(raw: string): string {
  const digits = raw.replace(/\D/g, "");
  return digits.replace(/^0+(?=\d)/, "");
}

/** Groups of three digits from the right, joined by the narrow no-break space. */
export function groupDigits(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, GROUP_SEPARATOR);
}

/** The field's state for what is in it now (typed, pasted or stored): anything but digits is dropped. */
export function formatAmountInput(raw: string | number | null | undefined): AmountInputState {
  if (raw === null || raw === undefined) return { display: "", value: "" };
  const digits = digitsOf(String(raw));
  return { display: groupDigits(digits), value: digits };
}

/** How many digits stand before position `caret` of `text`. */
export function digitsBefore(text: string, caret: number): number {
  return text.slice(0, caret).replace(/\D/g, "").length;
}

/** The position in `display` just after its `count`-th digit (so the caret stays where it was typed). */
export function caretAfterDigits(display: string, count: number): number {
  if (count <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < display.length; i++) {
    if (/\d/.test(display[i])) seen++;
    if (seen === count) return i + 1;
  }
  return display.length;
}
