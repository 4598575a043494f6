// The assertions every API test makes about an answer: its status, the contract's error body,
// a validation error naming a field, and the ETag. Failures show the body, so a wrong status
// says why.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { errorBody } from './test-api.ts';

export interface ErrorJson {
  Code: string;
  FriendlyDescription: string;
  Errors?: { Field: string; Message: string }[];
}

/** Asserts the status (showing the body when it differs). */
export function expectStatus(response: LightMyRequestResponse, status: number): void {
  expect(response.statusCode, response.body).toBe(status);
}

/**
 * Asserts an error status with the contract's error body and, when given, its Code and a
 * field its Errors name.
 */
export function expectError(
  response: LightMyRequestResponse,
  status: number,
  code?: string,
  field?: string,
): ErrorJson {
  expectStatus(response, status);
  const body = errorBody(response);
  if (code !== undefined) expect(body.Code).toBe(code);
  if (field !== undefined) expect(body.Errors?.map((e) => e.Field)).toContain(field);
  return body;
}

/** Asserts a 400 ValidationFailed whose Errors name `field`. */
export function expectFieldError(response: LightMyRequestResponse, field: string): ErrorJson {
  const body = expectError(response, 400, 'ValidationFailed');
  expect(
    body.Errors?.map((e) => e.Field),
    response.body,
  ).toContain(field);
  return body;
}

/** Asserts a 400 naming an unknown body field. */
export function expectUnknownField(response: LightMyRequestResponse, field: string): void {
  const body = expectError(response, 400, 'ValidationFailed');
  expect(body.Errors).toContainEqual({ Field: field, Message: 'is not a known field' });
}

/** The quoted ETag of a response. */
export function etagOf(response: LightMyRequestResponse): string {
  const etag = response.headers.etag;
  expect(typeof etag, 'ETag header').toBe('string');
  return etag as string;
}
