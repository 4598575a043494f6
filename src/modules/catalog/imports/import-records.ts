// Streams the records of an import file, one at a time, with the line each one is on and how far
// into the file it ends: JSONL by lines (node:readline), CSV through csv-parse. Memory stays
// bounded by one line (the caller takes records in chunks). The CSV layout (docs/api.md): a
// header row naming columns of the record; Prices, DynamicAttributes and Tags hold the JSON of
// the same arrays as JSONL; an empty cell is an absent field.
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { FieldError } from '../../../http/errors.ts';
import type { ImportFormat } from './import-schemas.ts';

export interface SourceRecord {
  /** 1-based position among the file's records (blank lines are not records). */
  index: number;
  /** The file's line the record is on (its last line, for a CSV row spanning several). */
  line: number;
  /** Bytes of the file read up to the end of this record. */
  bytes: number;
  /** The record as an object, when it could be read. */
  value?: Record<string, unknown>;
  /** Why it could not be read (not JSON, not an object, a bad CSV cell). */
  problems?: FieldError[];
}

/** The file cannot be read any further (a CSV quote left open, an unknown CSV column). */
export class ImportFileError extends Error {}

export function readRecords(
  format: ImportFormat,
  source: Readable,
  skip: number,
): AsyncGenerator<SourceRecord> {
  return format === 'jsonl' ? jsonlRecords(source, skip) : csvRecords(source, skip);
}

async function* jsonlRecords(source: Readable, skip: number): AsyncGenerator<SourceRecord> {
  const lines = createInterface({ input: source, crlfDelay: Infinity });
  let line = 0;
  let index = 0;
  let bytes = 0;
  for await (let text of lines) {
    line++;
    bytes += Buffer.byteLength(text) + 1;
    // A byte order mark before the first record is not part of it.
    if (line === 1 && text.startsWith('\uFEFF')) text = text.slice(1);
    if (text.trim() === '') continue;
    index++;
    if (index <= skip) continue;
    yield { index, line, bytes, ...parseJsonLine(text) };
  }
}

function parseJsonLine(text: string): Pick<SourceRecord, 'value' | 'problems'> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problems: [{ Field: '(line)', Message: `is not JSON: ${(error as Error).message}` }] };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { problems: [{ Field: '(line)', Message: 'is not a JSON object' }] };
  return { value: value as Record<string, unknown> };
}

/** CSV columns and how a cell's text becomes the record's value. */
const CSV_COLUMNS: Record<string, 'text' | 'number' | 'boolean' | 'json'> = {
  SKU: 'text',
  RFID: 'text',
  UUID: 'text',
  Name: 'text',
  Title: 'text',
  Model: 'text',
  ShortDescription: 'text',
  LongDescription: 'text',
  ItemStatusId: 'number',
  InStock: 'boolean',
  PublicWebLink: 'text',
  Rating: 'number',
  CategoryId: 'number',
  Category: 'text',
  BrandId: 'number',
  Brand: 'text',
  GroupKey: 'text',
  Prices: 'json',
  DynamicAttributes: 'json',
  Tags: 'json',
};
export const CSV_COLUMN_NAMES = Object.keys(CSV_COLUMNS);

async function* csvRecords(source: Readable, skip: number): AsyncGenerator<SourceRecord> {
  const parser = source.pipe(
    parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true }),
  );
  let header: string[] | undefined;
  let index = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number; bytes: number };
    }>) {
      if (!header) {
        header = record.map((name) => name.trim());
        const unknown = header.filter((name) => !(name in CSV_COLUMNS));
        if (unknown.length > 0)
          throw new ImportFileError(
            `line ${info.lines}: unknown column ${unknown.map((n) => `"${n}"`).join(', ')} (columns: ${CSV_COLUMN_NAMES.join(', ')})`,
          );
        if (new Set(header).size !== header.length)
          throw new ImportFileError(`line ${info.lines}: a column is named twice`);
        continue;
      }
      index++;
      if (index <= skip) continue;
      yield { index, line: info.lines, bytes: info.bytes, ...csvRecord(header, record) };
    }
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    const lines = (error as { lines?: number }).lines;
    throw new ImportFileError(
      `${lines !== undefined ? `line ${lines}: ` : ''}${(error as Error).message}`,
    );
  }
}

function csvRecord(header: string[], cells: string[]): Pick<SourceRecord, 'value' | 'problems'> {
  if (cells.length !== header.length)
    return {
      problems: [
        {
          Field: '(line)',
          Message: `has ${cells.length} cells; the header has ${header.length} columns`,
        },
      ],
    };
  const value: Record<string, unknown> = {};
  const problems: FieldError[] = [];
  header.forEach((column, i) => {
    const cell = cells[i]!;
    if (cell === '') return;
    const kind = CSV_COLUMNS[column]!;
    if (kind === 'text') value[column] = cell;
    else if (kind === 'number')
      value[column] = /^\s*-?\d+(\.\d+)?\s*$/.test(cell) ? Number(cell) : cell;
    else if (kind === 'boolean') {
      const b = cell.trim().toLowerCase();
      value[column] = b === 'true' || b === '1' ? true : b === 'false' || b === '0' ? false : cell;
    } else {
      try {
        value[column] = JSON.parse(cell);
      } catch {
        problems.push({ Field: column, Message: 'is not JSON' });
      }
    }
  });
  return problems.length > 0 ? { problems } : { value };
}
