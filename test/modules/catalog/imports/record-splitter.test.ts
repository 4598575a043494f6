// The import's record splitter: the same records whatever the chunks the file arrives in, line
// feeds inside quoted CSV fields kept in their record, and a record over the limit handed on as
// over-long with its length and nothing of its bytes.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  splitRecords,
  type RawRecord,
} from '../../../../src/modules/catalog/imports/record-splitter.ts';

async function split(text: string, chunkSize: number, max: number, quoted: boolean) {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize));
  const records: (Omit<RawRecord, 'bytes'> & { text: string })[] = [];
  for await (const { bytes: b, ...rest } of splitRecords(Readable.from(chunks), max, quoted))
    records.push({ ...rest, text: b.toString('utf8') });
  return records;
}

describe('splitRecords', () => {
  const jsonl = '{"a":1}\n\n{"b":"ü"}\r\n{"c":3}';
  const csv = 'A,B\n"x\ny",2\n"say ""hi""\n",3\nlast,"q"';

  it('splits JSONL lines the same for every chunk size', async () => {
    const whole = await split(jsonl, 1 << 16, 100, false);
    expect(whole).toEqual([
      { text: '{"a":1}', lineFeeds: 1, end: 8 },
      { text: '', lineFeeds: 1, end: 9 },
      { text: '{"b":"ü"}\r', lineFeeds: 1, end: 21 },
      { text: '{"c":3}', lineFeeds: 0, end: 28 },
    ]);
    for (let size = 1; size <= jsonl.length; size++)
      expect(await split(jsonl, size, 100, false)).toEqual(whole);
  });

  it('keeps quoted line feeds in their CSV record, for every chunk size', async () => {
    const whole = await split(csv, 1 << 16, 100, true);
    expect(whole.map((r) => [r.text, r.lineFeeds])).toEqual([
      ['A,B', 1],
      ['"x\ny",2', 2],
      ['"say ""hi""\n",3', 2],
      ['last,"q"', 0],
    ]);
    for (let size = 1; size <= csv.length; size++)
      expect(await split(csv, size, 100, true)).toEqual(whole);
  });

  it('hands on a record over the limit as over-long, with its length and no bytes', async () => {
    const text = `ok\n${'x'.repeat(50)}\n"${'y\n'.repeat(20)}"\nend\n`;
    for (const size of [1, 7, 64, 1024]) {
      const records = await split(text, size, 10, true);
      expect(records).toEqual([
        { text: 'ok', lineFeeds: 1, end: 3 },
        { text: '', overLongBytes: 50, lineFeeds: 1, end: 54 },
        { text: '', overLongBytes: 42, lineFeeds: 21, end: 97 },
        { text: 'end', lineFeeds: 1, end: 101 },
      ]);
    }
  });

  it('takes a record of exactly the limit', async () => {
    expect(await split('0123456789\n', 3, 10, false)).toEqual([
      { text: '0123456789', lineFeeds: 1, end: 11 },
    ]);
  });
});
