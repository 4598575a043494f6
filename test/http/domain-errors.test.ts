// A service's DomainError answered through the server's error handler: each kind with its status,
// the code, message and field errors unchanged, and the neutral facts it carries as headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { DomainError, invalidField, type DomainErrorKind } from '../../src/domain/domain-error.ts';
import { registerErrorHandling } from '../../src/http/error-handler.ts';

const STATUSES: [DomainErrorKind, number][] = [
  ['invalid', 400],
  ['unauthenticated', 401],
  ['forbidden', 403],
  ['not-found', 404],
  ['conflict', 409],
  ['precondition-failed', 412],
  ['too-large', 413],
  ['range-not-satisfiable', 416],
  ['rate-limited', 429],
  ['unavailable', 503],
];

describe('DomainError answers', () => {
  let app: FastifyInstance;
  let thrown: DomainError;
  beforeAll(async () => {
    app = Fastify();
    registerErrorHandling(app);
    app.get('/', async () => {
      throw thrown;
    });
    await app.ready();
  });
  afterAll(() => app.close());

  const answer = async (error: DomainError) => {
    thrown = error;
    return app.inject({ url: '/' });
  };

  it.each(STATUSES)('answers %s with %i', async (kind, status) => {
    const response = await answer(new DomainError(kind, 'SomeCode', 'Some text.'));
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ Code: 'SomeCode', FriendlyDescription: 'Some text.' });
    expect(response.json()).not.toHaveProperty('Errors');
  });

  it('keeps the field errors', async () => {
    const response = await answer(invalidField('Name', 'is required'));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      Code: 'ValidationFailed',
      FriendlyDescription: 'Name: is required',
      Errors: [{ Field: 'Name', Message: 'is required' }],
    });
  });

  it('gives retryAfterSeconds as Retry-After', async () => {
    const response = await answer(
      new DomainError('rate-limited', 'RateLimited', 'Slow down.', { retryAfterSeconds: 3 }),
    );
    expect(response.headers['retry-after']).toBe('3');
  });

  it('gives contentSize as the Content-Range of a 416', async () => {
    const response = await answer(
      new DomainError('range-not-satisfiable', 'RangeNotSatisfiable', 'No.', { contentSize: 10 }),
    );
    expect(response.headers['content-range']).toBe('bytes */10');
  });

  it('challenges an invalid token with its description', async () => {
    const response = await answer(
      new DomainError('unauthenticated', 'InvalidToken', 'The "device" is gone.', {
        invalidToken: true,
      }),
    );
    expect(response.headers['www-authenticate']).toBe(
      `Bearer error="invalid_token", error_description="The 'device' is gone."`,
    );
  });

  it('closes the connection after refusing a too large input', async () => {
    const response = await answer(new DomainError('too-large', 'AssetTooLarge', 'Too large.'));
    expect(response.headers.connection).toBe('close');
  });
});
