// Splits an import file into its records at the byte level, holding at most one record of
// `maxBytes` in memory: a longer record is counted, not kept, and handed on as over-long so that
// it fails alone (node:readline, used before, kept a whole line however long, and a line of a
// few hundred megabytes ended the process). JSONL records end at a line feed; a CSV record ends
// at a line feed outside quotes (RFC 4180: a quote inside a quoted field is doubled, so counting
// quotes tells whether a line feed is inside one).
import type { Readable } from 'node:stream';

export interface RawRecord {
  /** The record's bytes, without its line feed; empty when it is over-long. */
  bytes: Buffer;
  /** Its length in bytes, when that is over the limit (its bytes were dropped). */
  overLongBytes?: number;
  /** Line feeds the record takes: 1, more for a CSV row with quoted line breaks, 0 at the end. */
  lineFeeds: number;
  /** Bytes of the file read up to the end of this record, its line feed included. */
  end: number;
}

const LF = 0x0a;
const QUOTE = 0x22;

export async function* splitRecords(
  source: Readable,
  maxBytes: number,
  quoted: boolean,
): AsyncGenerator<RawRecord> {
  let parts: Buffer[] = [];
  let size = 0;
  let lineFeeds = 0;
  let inQuotes = false;
  let read = 0;

  const take = (piece: Buffer) => {
    size += piece.length;
    if (size <= maxBytes) parts.push(piece);
    else parts = [];
  };
  const record = (end: number, feeds: number): RawRecord => {
    const done: RawRecord =
      size > maxBytes
        ? { bytes: Buffer.alloc(0), overLongBytes: size, lineFeeds: feeds, end }
        : {
            bytes: parts.length === 1 ? parts[0]! : Buffer.concat(parts, size),
            lineFeeds: feeds,
            end,
          };
    parts = [];
    size = 0;
    lineFeeds = 0;
    return done;
  };

  for await (const data of source) {
    const chunk = typeof data === 'string' ? Buffer.from(data) : (data as Buffer);
    let start = 0;
    let scan = 0;
    while (start < chunk.length) {
      const lf = chunk.indexOf(LF, scan);
      if (quoted) {
        // Quotes before the line feed (or the chunk's end) flip whether it is inside a field.
        const limit = lf === -1 ? chunk.length : lf;
        for (
          let q = chunk.indexOf(QUOTE, scan);
          q !== -1 && q < limit;
          q = chunk.indexOf(QUOTE, q + 1)
        )
          inQuotes = !inQuotes;
      }
      if (lf === -1) {
        take(chunk.subarray(start));
        break;
      }
      if (quoted && inQuotes) {
        // A line break inside a quoted field: the record goes on.
        lineFeeds++;
        scan = lf + 1;
        continue;
      }
      take(chunk.subarray(start, lf));
      yield record(read + lf + 1, lineFeeds + 1);
      start = scan = lf + 1;
    }
    read += chunk.length;
  }
  if (size > 0 || parts.length > 0 || lineFeeds > 0) yield record(read, lineFeeds);
}
