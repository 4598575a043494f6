// An import's job and its rows with problems as the page shows them: each row named by its line
// and its item (SKU, else title), each problem the API's sentence (which names the value at
// fault and what to do); an older import's fragment ("is required") in the same plain words.
import type { paths } from '@omnichannel/management-client';
import { call, client } from '../../api.ts';
import { fieldSentence, labelOf } from '../../error-messages.ts';

export type ImportJob =
  paths['/private/catalog/imports/{id}']['get']['responses'][200]['content']['application/json'];

/** Failed rows shown at most (the job counts them all). */
const SHOWN_FAILURES = 100;

export const importKeys = {
  all: ['imports'] as const,
  page: (skip: number) => ['imports', 'page', skip] as const,
};

export const running = (job: ImportJob) => job.State === 'Queued' || job.State === 'Running';

export const fetchImport = (id: number) =>
  call(client.GET('/private/catalog/imports/{id}', { params: { path: { id } } }));

export interface FailedRow {
  line: number;
  /** The item's SKU, else its title, as the file gives them. */
  item: string;
  field: string;
  problem: string;
  /** The row names something the catalog lacks, which importing with createMissing creates. */
  missing: boolean;
}

/** A sentence as the API writes them now: a capital first, a full stop last. */
const isSentence = (text: string) => /^[A-Z"“(]/.test(text) && /[.!?]$/.test(text.trim());

function failedRow(line: number, item: string, field: string, message: string): FailedRow {
  const missing = message.includes('(createMissing)');
  const whole = field === '(line)' || field === '';
  const label = whole ? 'Whole line' : labelOf(field);
  const problem = isSentence(message)
    ? message
    : whole
      ? `${message.charAt(0).toUpperCase()}${message.slice(1)}.`
      : fieldSentence(field, message);
  return { line, item, field: label, problem, missing };
}

interface ResultLine {
  Line: number;
  Status: string;
  SKU?: string;
  Title?: string;
  Errors?: { Field: string; Message: string; Code?: string }[];
}

/** The failed rows of an import (the first SHOWN_FAILURES), read from its JSONL results. */
export async function failedRows(id: number): Promise<FailedRow[]> {
  const stream = await call(
    client.GET('/private/catalog/imports/{id}/results', {
      params: { path: { id } },
      parseAs: 'stream',
    }),
  );
  const rows: FailedRow[] = [];
  if (!stream) return rows;
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let rest = '';
  const take = (text: string) => {
    if (!text.trim()) return;
    const result = JSON.parse(text) as ResultLine;
    if (result.Status !== 'Failed') return;
    const item = result.SKU ?? result.Title ?? '';
    for (const error of result.Errors ?? [])
      rows.push(failedRow(result.Line, item, error.Field, error.Message));
  };
  while (rows.length < SHOWN_FAILURES) {
    const { done, value } = await reader.read();
    if (done) break;
    const lines = (rest + value).split('\n');
    rest = lines.pop() ?? '';
    lines.forEach(take);
  }
  take(rest);
  await reader.cancel();
  return rows.slice(0, SHOWN_FAILURES);
}
