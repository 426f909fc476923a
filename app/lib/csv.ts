// CSV files for spreadsheets (RFC 4180), safe to open in Excel or LibreOffice.
//
// Formula injection: a cell whose text starts with = + - @ (or a tab or carriage return, which
// some spreadsheets skip before reading the formula) is run as a formula when the file is opened.
// Such cells get a leading single quote, which spreadsheets show as plain text. Numbers are written
// as they are (a negative number is data, not a formula).

export type CsvValue = string | number | boolean | null | undefined;

export type CsvOptions = {
  /** Field separator; a comma by default (RFC 4180). */
  delimiter?: "," | ";";
  /** Start with a UTF-8 byte order mark, so that Excel reads accents correctly. Default true. */
  bom?: boolean;
};

const FORMULA_START = /^[=+\-@\t\r]/;

/** The text of a cell, with a leading single quote when it could be read as a formula. */
export function neutraliseCsvFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One cell: neutralised, then quoted when it holds the delimiter, a quote or a line break. */
export function csvCell(value: CsvValue, delimiter: "," | ";" = ","): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "oui" : "non";
  const text = neutraliseCsvFormula(value);
  const mustQuote = text.includes(delimiter) || /["\r\n]/.test(text) || text !== text.trim();
  return mustQuote ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole file: a header line, then one line per row, each ended by CRLF. */
export function toCsv(headers: readonly string[], rows: ReadonlyArray<readonly CsvValue[]>, options: CsvOptions = {}): string {
  const delimiter = options.delimiter ?? ",";
  const line = (cells: readonly CsvValue[]) => `${cells.map((c) => csvCell(c, delimiter)).join(delimiter)}\r\n`;
  const body = [line(headers), ...rows.map(line)].join("");
  return (options.bom ?? true) ? `\uFEFF${body}` : body;
}

/** A safe attachment file name ("recommandations-2026-03-14.csv"): ASCII letters, digits, - _ . only. */
export function csvFileName(base: string, date = new Date()): string {
  const safe = base.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || "export";
  return `${safe}-${date.toISOString().slice(0, 10)}.csv`;
}
