// Sends one webhook: the Standard Webhooks headers and signature (standardwebhooks), to the
// address the SSRF guard checked (the URL's rules checked again first), within the timeout,
// without following redirects. A failure's reply body is quoted only for public receivers, and
// what a failure says to the tenant names no address the server resolved (the operator's log does).
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupAddress } from 'node:dns';
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { AddressRefused, checkedAddress, showsReplyBody, type Resolver } from './address-guard.ts';
import { webhookUrlProblem } from './webhook-url.ts';

/** A new signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The `webhook-signature` header: one `v1,…` signature per secret, space-separated. */
export function signatureHeader(
  secrets: string[],
  messageId: string,
  timestamp: Date,
  payload: string,
): string {
  return secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, payload)).join(' ');
}

export interface SendResult {
  /** The receiver's status code; undefined when no answer came. */
  status: number | undefined;
  durationMs: number;
  /**
   * Why it failed (no answer, a refused URL or address, a status other than 2xx, with the start
   * of the reply's body for public receivers only); undefined on success.
   */
  error: string | undefined;
}

export interface SendOptions {
  url: string;
  messageId: string;
  payload: string;
  secrets: string[];
  timestamp: Date;
  timeoutMs: number;
  allowedHosts: readonly string[];
  resolve: Resolver;
  /** The operator's log: refused and unreachable addresses, which the tenant is not told. */
  log?: FastifyBaseLogger | undefined;
}

interface SystemError extends Error {
  code?: string;
  syscall?: string;
  address?: string;
}

/**
 * What the tenant reads of a failed connection: Node's `connect ECONNREFUSED 10.0.0.5:9000` with
 * the URL's host and port in place of the address it resolved to (an allow-listed internal name's
 * private address); other errors as they are.
 */
function connectionError(error: SystemError, url: URL): string {
  if (!error.syscall || !error.code || error.address === undefined) return error.message;
  return `${error.syscall} ${error.code} ${url.host}`;
}

/** Keeps at most this much of a public receiver's error answer's body for the delivery log. */
const ERROR_BODY_BYTES = 256;

export async function sendWebhook(options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const problem = webhookUrlProblem(options.url, options.allowedHosts);
  if (problem) return { status: undefined, durationMs: elapsed(), error: problem };
  const url = new URL(options.url);
  let address: LookupAddress;
  try {
    address = await checkedAddress(url, options.allowedHosts, options.resolve);
  } catch (error) {
    if (error instanceof AddressRefused)
      options.log?.warn(
        { url: options.url, host: error.host, address: error.address },
        `webhook delivery refused: ${error.message}`,
      );
    return { status: undefined, durationMs: elapsed(), error: (error as Error).message };
  }
  // An allow-listed (internal) receiver's reply is never shown: its status only.
  const keepBody = showsReplyBody(url, options.allowedHosts, address.address);
  const body = Buffer.from(options.payload, 'utf8');
  const headers = {
    'content-type': 'application/json',
    'content-length': String(body.length),
    'user-agent': 'omni-webhooks/1',
    'webhook-id': options.messageId,
    'webhook-timestamp': String(Math.floor(options.timestamp.getTime() / 1000)),
    'webhook-signature': signatureHeader(
      options.secrets,
      options.messageId,
      options.timestamp,
      options.payload,
    ),
  };
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (status: number | undefined, error: string | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ status, durationMs: elapsed(), error });
    };
    const req = request(
      url,
      {
        method: 'POST',
        headers,
        agent: false,
        // Connect to the checked address only (the name still goes in Host and TLS's SNI).
        lookup: (_hostname, _options, callback) => {
          (callback as (e: null, a: LookupAddress[] | string, f?: number) => void)(
            null,
            (_options as { all?: boolean }).all ? [address] : address.address,
            address.family,
          );
        },
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        const kept: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (!ok && keepBody && size < ERROR_BODY_BYTES) kept.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => {
          if (ok) return finish(status, undefined);
          const text = Buffer.concat(kept).toString('utf8').slice(0, ERROR_BODY_BYTES).trim();
          const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
          finish(status, `answered ${status}${redirect}${text ? `: ${text}` : ''}`);
        });
        res.on('error', (error) => finish(status, error.message));
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    req.on('error', (error: SystemError) => {
      if (error.address !== undefined)
        options.log?.info(
          { url: options.url, address: error.address, code: error.code },
          `webhook delivery failed: ${error.message}`,
        );
      finish(undefined, connectionError(error, url));
    });
    req.end(body);
  });
}
