// Continuation tokens of log pages: the last (created_at, id) of a page, bound to the tenant,
// the counter and the query's filters, and signed with HMAC-SHA256 under a secret every
// instance shares (analytics_secrets, made by the migration). A forged or altered token, or
// one of another tenant, counter or filter set, fails the check.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DatabaseHandle } from '../../db/connection/database.ts';
import { invalidContinuationToken } from './analytics-errors.ts';

export interface PageKey {
  /** created_at as ISO text with microseconds. */
  time: string;
  /** The row id, as decimal text. */
  id: string;
}

const VERSION = 1;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export class ContinuationTokens {
  private secret: Promise<Buffer> | undefined;

  private readonly database: DatabaseHandle;

  constructor(database: DatabaseHandle) {
    this.database = database;
  }

  private key(): Promise<Buffer> {
    this.secret ??= this.database
      .query<{ secret: Uint8Array }>('select secret from analytics_secrets where id = 1')
      .then((rows) => Buffer.from(rows[0]!.secret))
      .catch((error: unknown) => {
        this.secret = undefined;
        throw error;
      });
    return this.secret;
  }

  private async mac(payload: string): Promise<Buffer> {
    return createHmac('sha256', await this.key())
      .update(payload)
      .digest();
  }

  async issue(tenantId: number, counter: number, filters: string, last: PageKey): Promise<string> {
    const position = Buffer.from(JSON.stringify([VERSION, last.time, last.id])).toString(
      'base64url',
    );
    const mac = await this.mac(`${tenantId}\n${counter}\n${filters}\n${position}`);
    return `${position}.${mac.subarray(0, 18).toString('base64url')}`;
  }

  /** The page key of a token issued for this tenant, counter and filters; else 400. */
  async open(token: string, tenantId: number, counter: number, filters: string): Promise<PageKey> {
    const [position, signature, extra] = token.split('.');
    if (!position || !signature || extra !== undefined) throw invalidContinuationToken();
    const expected = (await this.mac(`${tenantId}\n${counter}\n${filters}\n${position}`)).subarray(
      0,
      18,
    );
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw invalidContinuationToken();
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(position, 'base64url').toString('utf8'));
    } catch {
      throw invalidContinuationToken();
    }
    if (
      !Array.isArray(parsed) ||
      parsed[0] !== VERSION ||
      typeof parsed[1] !== 'string' ||
      !TIME.test(parsed[1]) ||
      typeof parsed[2] !== 'string' ||
      !/^\d{1,19}$/.test(parsed[2])
    )
      throw invalidContinuationToken();
    return { time: parsed[1], id: parsed[2] };
  }
}
