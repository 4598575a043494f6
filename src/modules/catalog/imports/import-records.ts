// Streams the records of an import file, one at a time, with the line each one is on and how far
// into the file it ends: JSONL by lines, CSV through csv-parse, both split first by
// record-splitter.ts so that memory stays bounded by one record of at most maxRecordBytes (the
// caller takes records in chunks). A longer record is not read: it fails alone, naming its line.
// The CSV layout (docs/api.md): a header row naming columns of the record; Prices,
// DynamicAttributes, Tags, CategoryPath, CategoryMetadata and Assets hold the JSON of the same
// arrays as JSONL; an empty cell is an absent field, except that a quoted empty cell ("") is an
// empty text in the columns whose text may be empty.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { FieldError } from '../../../domain/domain-error.ts';
import { restoreFormula } from '../csv-formulas.ts';
import { hasField } from './import-record-check.ts';
import type { ImportFormat } from './import-schemas.ts';
import { splitRecords, type RawRecord } from './record-splitter.ts';

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
  maxRecordBytes: number,
): AsyncGenerator<SourceRecord> {
  return format === 'jsonl'
    ? jsonlRecords(source, skip, maxRecordBytes)
    : csvRecords(source, skip, maxRecordBytes);
}

const overLong = (bytes: number, limit: number): FieldError[] => [
  {
    Field: '(line)',
    Message: `This line is ${bytes} bytes long, over the ${limit} bytes a record may have (IMPORT_MAX_RECORD_BYTES); it was not read. Shorten it, or split the item's long texts.`,
  },
];

async function* jsonlRecords(
  source: Readable,
  skip: number,
  maxRecordBytes: number,
): AsyncGenerator<SourceRecord> {
  let line = 0;
  let index = 0;
  for await (const raw of splitRecords(source, maxRecordBytes, false)) {
    line++;
    if (raw.overLongBytes !== undefined) {
      index++;
      if (index > skip)
        yield {
          index,
          line,
          bytes: raw.end,
          problems: overLong(raw.overLongBytes, maxRecordBytes),
        };
      continue;
    }
    let text = raw.bytes.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    // A byte order mark before the first record is not part of it.
    if (line === 1 && text.startsWith('\uFEFF')) text = text.slice(1);
    if (text.trim() === '') continue;
    index++;
    if (index <= skip) continue;
    yield { index, line, bytes: raw.end, ...parseJsonLine(text) };
  }
}

function parseJsonLine(text: string): Pick<SourceRecord, 'value' | 'problems'> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      problems: [
        {
          Field: '(line)',
          Message: `This line is not JSON (${(error as Error).message}). Each line of a JSONL file is one item, a JSON object.`,
        },
      ],
    };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return {
      problems: [
        {
          Field: '(line)',
          Message:
            'This line is not a JSON object. Each line of a JSONL file is one item, like {"Title": "Trail jacket"}.',
        },
      ],
    };
  return { value: value as Record<string, unknown> };
}

/**
 * CSV columns and how a cell's text becomes the record's value. `text?`: a text that may be
 * empty, so that a quoted empty cell is an empty text there (elsewhere it is absent, as an
 * unquoted one: a file that quotes every cell still imports as before).
 */
type CsvKind = 'text' | 'text?' | 'number' | 'boolean' | 'json';
const CSV_COLUMN_KINDS: Record<string, CsvKind> = {
  RecordType: 'text',
  SKU: 'text',
  RFID: 'text',
  UUID: 'text',
  Name: 'text',
  Title: 'text',
  Model: 'text',
  ShortDescription: 'text?',
  LongDescription: 'text?',
  ItemStatusId: 'number',
  InStock: 'boolean',
  PublicWebLink: 'text',
  Rating: 'number',
  CategoryId: 'number',
  Category: 'text',
  CategoryPath: 'json',
  BrandId: 'number',
  Brand: 'text',
  GroupKey: 'text',
  Prices: 'json',
  DynamicAttributes: 'json',
  Tags: 'json',
  Assets: 'json',
  CategoryMetadata: 'json',
  Tag: 'text',
  Description: 'text?',
  PriceTypeSymbol: 'text',
  TypeName: 'text',
};
/** Looked up as a Map: a column named "constructor" or "__proto__" is unknown, not inherited. */
const CSV_COLUMNS = new Map(Object.entries(CSV_COLUMN_KINDS));
export const CSV_COLUMN_NAMES = [...CSV_COLUMNS.keys()];

/**
 * The file's records again as CSV for csv-parse, an over-long one replaced by a row whose one
 * cell is `marker` and its length, with as many line feeds (quoted) so that line numbers hold.
 * `ends` learns, by the line each record ends on, how far into the file it ends.
 */
async function* csvText(
  raws: AsyncGenerator<RawRecord>,
  marker: string,
  ends: Map<number, number>,
): AsyncGenerator<Buffer> {
  let lines = 0;
  for await (const raw of raws) {
    ends.set(lines + Math.max(1, raw.lineFeeds), raw.end);
    lines += raw.lineFeeds;
    if (raw.overLongBytes === undefined) yield Buffer.concat([raw.bytes, LINE_FEED]);
    else {
      const breaks = '\n'.repeat(Math.max(0, raw.lineFeeds - 1));
      yield Buffer.from(`"${marker}${raw.overLongBytes}${breaks}"\n`);
    }
  }
}

const LINE_FEED = Buffer.from('\n');

async function* csvRecords(
  source: Readable,
  skip: number,
  maxRecordBytes: number,
): AsyncGenerator<SourceRecord> {
  const marker = `\u0000over-long ${randomUUID()}:`;
  // How far into the file each record ends, in the file's own bytes (csv-parse counts the text
  // it is given, where an over-long record is shorter), by the line it ends on.
  const ends = new Map<number, number>();
  const text = Readable.from(csvText(splitRecords(source, maxRecordBytes, true), marker, ends));
  const parser = parse({
    bom: true,
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
    // An empty cell is absent (null) unless quoted: "" is an empty text.
    cast: (value, context) => (value === '' && !context.quoting ? null : value),
  });
  text.on('error', (error) => parser.destroy(error));
  text.pipe(parser);
  let header: string[] | undefined;
  let index = 0;
  const overLongBytes = (record: (string | null)[]) =>
    record.length === 1 && record[0]?.startsWith(marker)
      ? Number(record[0].slice(marker.length).trim())
      : undefined;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: (string | null)[];
      info: { lines: number };
    }>) {
      const bytes = ends.get(info.lines) ?? 0;
      for (const line of ends.keys()) {
        if (line > info.lines) break;
        ends.delete(line);
      }
      const tooLong = overLongBytes(record);
      if (!header) {
        if (tooLong !== undefined)
          throw new ImportFileError(
            `line ${info.lines}: the header row is ${tooLong} bytes long, over the ${maxRecordBytes} bytes a record may have (IMPORT_MAX_RECORD_BYTES)`,
          );
        header = record.map((name) => (name ?? '').trim());
        const unknown = header.filter((name) => !CSV_COLUMNS.has(name));
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
      if (tooLong !== undefined)
        yield { index, line: info.lines, bytes, problems: overLong(tooLong, maxRecordBytes) };
      else yield { index, line: info.lines, bytes, ...csvRecord(header, record) };
    }
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    const lines = (error as { lines?: number }).lines;
    throw new ImportFileError(
      `${lines !== undefined ? `line ${lines}: ` : ''}${(error as Error).message}`,
    );
  } finally {
    text.destroy();
  }
}

function csvRecord(
  header: string[],
  cells: (string | null)[],
): Pick<SourceRecord, 'value' | 'problems'> {
  if (cells.length !== header.length)
    return {
      problems: [
        {
          Field: '(line)',
          Message: `This row has ${cells.length} cells; the header has ${header.length} columns. Check for a missing or extra comma (a value with a comma needs quotes).`,
        },
      ],
    };
  const value: Record<string, unknown> = {};
  const problems: FieldError[] = [];
  header.forEach((column, i) => {
    const cell = cells[i] ?? null;
    const kind = CSV_COLUMNS.get(column)!;
    if (cell === null || (cell === '' && kind !== 'text?')) return;
    if (kind === 'text' || kind === 'text?') value[column] = restoreFormula(cell);
    else if (kind === 'number')
      value[column] = /^\s*-?\d+(\.\d+)?\s*$/.test(cell) ? Number(cell) : cell;
    else if (kind === 'boolean') {
      const b = cell.trim().toLowerCase();
      value[column] = b === 'true' || b === '1' ? true : b === 'false' || b === '0' ? false : cell;
    } else {
      try {
        value[column] = JSON.parse(cell);
      } catch {
        problems.push({
          Field: column,
          Message: `${column} is not JSON. This column holds a JSON value, like [{"Name": "Sale"}].`,
        });
      }
    }
  });
  // A quoted empty cell is an empty text only in a field of the row's record type: a file that
  // quotes every cell has "" in the columns of the other types.
  for (const column of header)
    if (value[column] === '' && !hasField(value.RecordType ?? 'Item', column)) delete value[column];
  return problems.length > 0 ? { problems } : { value };
}
