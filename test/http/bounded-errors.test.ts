// Validation errors are bounded (issue 46): an answer lists at most MAX_LISTED_ERRORS of them and
// counts the rest in ErrorsOmitted, and validation stops at MAX_COUNTED_ERRORS, so that a 1 MiB
// body breaking its schema half a million times answers a few kilobytes (it answered 43 MB).
// Time and memory are measured by bench/hostile-input.ts (docs/reliability.md), not here.
import { describe, expect, it } from 'vitest';
import { MAX_COUNTED_ERRORS, MAX_LISTED_ERRORS } from '../../src/domain/bounded-validation.ts';
import { useTestApi, useTenant } from '../support/test-api.ts';
import { expectError } from '../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');

/** What the review sent: 524,236 entries, 1 MiB of JSON. */
const HALF_A_MILLION = 524_236;
const ones = (count: number) => Array.from({ length: count }, () => 1);

interface BoundedError {
  Errors: { Field: string; Message: string }[];
  ErrorsOmitted?: number;
  FriendlyDescription: string;
}

describe('POST /private/catalog/item (validation errors bounded)', () => {
  it('lists every error of a body with a few, without ErrorsOmitted', async () => {
    const response = await api.call({
      method: 'POST',
      url: '/private/catalog/item',
      tenant: acme,
      body: { Title: 'x', Prices: [1, 2, 3] },
    });
    const body = expectError(response, 400, 'ValidationFailed') as BoundedError;
    expect(body.Errors.map((e) => e.Field)).toEqual(['Prices.0', 'Prices.1', 'Prices.2']);
    expect(body).not.toHaveProperty('ErrorsOmitted');
  });

  it('lists the first 100 of 150 errors and counts the other 50', async () => {
    const response = await api.call({
      method: 'POST',
      url: '/private/catalog/item',
      tenant: acme,
      body: { Title: 'x', Prices: ones(150) },
    });
    const body = expectError(response, 400, 'ValidationFailed') as BoundedError;
    expect(body.Errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(body.Errors.map((e) => e.Field)).toEqual(
      Array.from({ length: MAX_LISTED_ERRORS }, (_, i) => `Prices.${i}`),
    );
    expect(body.ErrorsOmitted).toBe(150 - MAX_LISTED_ERRORS);
  });

  it('answers a 1 MiB body of half a million errors in a few kilobytes', async () => {
    const payload = JSON.stringify({ Title: 'x', Prices: ones(HALF_A_MILLION) });
    expect(payload.length).toBeGreaterThan(2 ** 20 - 2000);
    const response = await api.call({
      method: 'POST',
      url: '/private/catalog/item',
      tenant: acme,
      body: JSON.parse(payload) as unknown,
    });
    const body = expectError(response, 400, 'ValidationFailed') as BoundedError;
    expect(body.Errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(body.ErrorsOmitted).toBe(MAX_COUNTED_ERRORS - MAX_LISTED_ERRORS);
    expect(body.FriendlyDescription).toMatch(/; and \d+ more\.$/);
    expect(response.rawPayload.length).toBeLessThan(16_384);
  });
  it('answers 10,000 invalid prices in the bytes of 100: the answer stops growing at the bound', async () => {
    // The review's case (issue 43): a 0.5 MB item body with 10,000 invalid prices answered
    // 2.8 MB. Its time is measured beside one error's by bench/hostile-input.ts.
    const invalidPrices = (count: number) =>
      Array.from({ length: count }, () => ({ PriceTypeId: 'x'.repeat(40) }));
    const answer = async (count: number) => {
      const response = await api.call({
        method: 'POST',
        url: '/private/catalog/item',
        tenant: acme,
        body: { Title: 'x', Prices: invalidPrices(count) },
      });
      expectError(response, 400, 'ValidationFailed');
      return response.rawPayload.length;
    };
    const hundred = await answer(MAX_LISTED_ERRORS);
    const tenThousand = await answer(10_000);
    expect(JSON.stringify(invalidPrices(10_000)).length).toBeGreaterThan(490_000);
    // Only ErrorsOmitted's digits and the description's count differ.
    expect(tenThousand).toBeLessThan(hundred + 64);
    expect(tenThousand).toBeLessThan(16_384);
  });
});

describe('POST /analytics/logs (validation errors bounded, public scope)', () => {
  it('answers half a million bad records in a few kilobytes to a public-scope token', async () => {
    const token = await api.issueToken(acme, acme.appId, acme.secret, 'public');
    const response = await api.call({
      method: 'POST',
      url: '/analytics/logs',
      tenant: acme,
      token,
      body: ones(HALF_A_MILLION),
    });
    const body = expectError(response, 400, 'ValidationFailed') as BoundedError;
    expect(body.Errors.length).toBeLessThanOrEqual(MAX_LISTED_ERRORS);
    expect(body.ErrorsOmitted).toBeGreaterThan(0);
    expect(response.rawPayload.length).toBeLessThan(16_384);
  });
});
