// CSV injection (OWASP): a spreadsheet opening a CSV runs a cell that starts with = + - @, a tab
// or a carriage return as a formula (=HYPERLINK(…), DDE), and some, in East Asian locales, take
// the full-width forms ＝ ＋ － ＠ (U+FF1D, U+FF0B, U+FF0D, U+FF20) for them. An exported text cell
// that would start so is written with a single quote before it, which spreadsheets show as text;
// the import takes that quote off again, so an exported file imports back to the same values.
// The rule is a bijection: a value that already starts with quotes before such a character gets
// one more.
const FORMULA_START = /^'*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const NEUTRALISED = /^'+[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** The text an exported CSV cell holds for a value. */
export function neutraliseFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** The value an imported CSV text cell stands for (the export's quote taken off). */
export function restoreFormula(cell: string): string {
  return NEUTRALISED.test(cell) ? cell.slice(1) : cell;
}
