// What the import and export pages share: following a job by polling it until it ends, dates
// and counts in plain words, and counting the records of a chosen file (the API reads files as
// streams and cannot tell their total ahead).
import { useEffect, useRef, useState } from 'react';

/** How often a running job is asked for its progress. */
export const POLL_MS = 1000;

/**
 * The job shown on a page, asked again every POLL_MS while `running` holds; `onEnd` runs once
 * when a followed job ends. An answer that comes after the job was replaced (a cancel, another
 * job shown) is dropped.
 */
export function useFollowedJob<Job extends { Id: number }>(
  fetchJob: (id: number) => Promise<Job>,
  running: (job: Job) => boolean,
  onEnd: (job: Job) => void,
) {
  const [job, setJob] = useState<Job>();
  const [error, setError] = useState<unknown>();
  // A failed poll is shown and the job asked again at the next tick.
  const [failures, setFailures] = useState(0);
  const ended = useRef(onEnd);
  ended.current = onEnd;
  useEffect(() => {
    if (!job || !running(job)) return;
    let current = true;
    const timer = setTimeout(() => {
      fetchJob(job.Id).then(
        (next) => {
          if (!current) return;
          setError(undefined);
          setJob(next);
          if (!running(next)) ended.current(next);
        },
        (failure: unknown) => {
          if (!current) return;
          setError(failure);
          setFailures((n) => n + 1);
        },
      );
    }, POLL_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [job, failures]);
  return { job, setJob, error, setError };
}

/** "27 Nov 2026, 10:42" in the browser's language. */
export const when = (iso: string | null) =>
  iso === null
    ? ''
    : new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** 1,234 in the browser's language. */
export const count = (n: number) => n.toLocaleString();

/** "1 row", "2 rows". */
export const plural = (n: number, one: string, many = `${one}s`) =>
  `${count(n)} ${n === 1 ? one : many}`;

const LF = 10;
const QUOTE = 34;
const SPACE = new Set([9, 13, 32]);

/**
 * How many records a file holds as the import counts them: JSONL lines that are not blank; CSV
 * rows after the header (a line feed inside quotes does not end a row). Read as a stream, so a
 * large file is never held in memory.
 */
export async function countRecords(file: Blob, format: 'jsonl' | 'csv'): Promise<number> {
  const reader = file.stream().getReader();
  let records = 0;
  let filled = false;
  let quoted = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (const byte of value) {
      if (format === 'csv' && byte === QUOTE) quoted = !quoted;
      if (byte === LF && !quoted) {
        if (filled) records++;
        filled = false;
      } else if (!SPACE.has(byte)) filled = true;
    }
  }
  if (filled) records++;
  return format === 'csv' ? Math.max(0, records - 1) : records;
}
