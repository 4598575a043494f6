// The CSV export's formula rule (csv-formulas.ts) on its own: every character a spreadsheet may
// start a formula with, ASCII or full-width (issue 52), gets a quote before it, and the import's
// rule takes exactly that quote off again.
import { describe, expect, it } from 'vitest';
import { neutraliseFormula, restoreFormula } from '../../../src/modules/catalog/csv-formulas.ts';

const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠'];

describe('neutraliseFormula and restoreFormula', () => {
  for (const start of FORMULA_STARTS) {
    const name = JSON.stringify(start);
    it(`quotes a cell that starts with ${name} (after quotes or not), and takes the quote off`, () => {
      for (const value of [`${start}SUM(1,2)`, `'${start}1`, `''${start}1`, start]) {
        expect(neutraliseFormula(value)).toBe(`'${value}`);
        expect(restoreFormula(neutraliseFormula(value))).toBe(value);
      }
    });
  }

  it('leaves text that has those characters later, or quotes alone, as it is', () => {
    for (const value of ['Plain - no formula', 'A＝B', 'x＋1', "'quote", "''", '', ' =1', '＇=1'])
      expect(neutraliseFormula(value)).toBe(value);
    expect(restoreFormula("'quote")).toBe("'quote");
  });

  it('quotes full-width formulas in an export the way it quotes ASCII ones', () => {
    expect(neutraliseFormula('＝HYPERLINK("http://127.0.0.1/x","Click")')).toBe(
      '\'＝HYPERLINK("http://127.0.0.1/x","Click")',
    );
    expect(neutraliseFormula('＠SUM(1,2)')).toBe("'＠SUM(1,2)");
    expect(neutraliseFormula('－2＋3')).toBe("'－2＋3");
    expect(neutraliseFormula('＋1＋cmd')).toBe("'＋1＋cmd");
  });
});
