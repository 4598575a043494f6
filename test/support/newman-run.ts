// Runs the committed Postman collection with newman (its programmatic API) against a server
// fresh from its first start, and sums up each request it sent: name, method, status and the
// failed assertions of its test script.
import newman from 'newman';
import { readFile } from 'node:fs/promises';
import { COLLECTION_FILE } from '../../scripts/postman-collection.ts';

export interface SentRequest {
  name: string;
  method: string;
  url: string;
  status: number | undefined;
  failures: string[];
  /** The answer's body (its first 500 characters), to say why a request failed. */
  body: string;
  /** The answer's headers (Prism reports violations in `sl-violations`). */
  headers: Record<string, string>;
}

interface RequestEvent {
  item: { name: string };
  request: { method: string; url: { toString(): string } };
  response?: {
    code: number;
    stream?: Buffer;
    headers: { each(callback: (header: { key: string; value: string }) => void): void };
  };
}
interface AssertionEvent {
  item: { name: string };
  assertion: string;
}
interface ConsoleEvent {
  level: string;
  messages: unknown[];
}

/** The collection as committed, parsed. */
export async function committedCollection(): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(COLLECTION_FILE, 'utf8')) as Record<string, unknown>;
}

/** Runs the collection with the given variables (baseUrl, clientId, clientSecret, …). */
export async function runCollection(
  variables: Record<string, string>,
  collection?: Record<string, unknown>,
): Promise<SentRequest[]> {
  const source = collection ?? (await committedCollection());
  const sent: SentRequest[] = [];
  await new Promise<void>((resolve, reject) => {
    const run = newman.run({
      collection: source,
      envVar: Object.entries(variables).map(([key, value]) => ({ key, value })),
      reporters: [],
      timeoutRequest: 30_000,
    });
    // newman's events carry untyped arguments: the parts read here, typed.
    run.on('request', (error: Error | null, args: RequestEvent) => {
      const headers: Record<string, string> = {};
      args.response?.headers.each((header) => {
        headers[header.key.toLowerCase()] = header.value;
      });
      sent.push({
        name: args.item.name,
        method: args.request.method,
        url: args.request.url.toString(),
        status: error ? undefined : args.response?.code,
        failures: error ? [String(error)] : [],
        body: args.response?.stream?.toString('utf8').slice(0, 500) ?? '',
        headers,
      });
    });
    run.on('assertion', (error: Error | null, args: AssertionEvent) => {
      if (!error) return;
      const last = sent.findLast((request) => request.name === args.item.name);
      last?.failures.push(`${args.assertion}: ${error.message}`);
    });
    run.on('console', (_error: Error | null, args: ConsoleEvent) => {
      if (args.level === 'error') sent.at(-1)?.failures.push(args.messages.map(String).join(' '));
    });
    run.on('done', (error: Error | null) => (error ? reject(error) : resolve()));
  });
  return sent;
}
