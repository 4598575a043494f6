// Checks a response body against the route's TypeBox response schema with the server's
// validator settings (ajv + ajv-formats, as src/http/validation.ts), and with every object of
// the schema closed: a body must carry the fields the schema documents and no others, so the
// OpenAPI document cannot drift from documents the database builds and the server passes through.
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { TSchema } from 'typebox';
import { expect } from 'vitest';

const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false });
addFormats.default(ajv);

/** A copy of the schema where every object schema refuses properties it does not list. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = closed(value);
  if (copy.type === 'object' && copy.properties !== undefined && !('additionalProperties' in copy))
    copy.additionalProperties = false;
  return copy;
}

const validators = new WeakMap<TSchema, ReturnType<Ajv['compile']>>();

/** Asserts that `body` (parsed JSON as sent) matches `schema` exactly; names every mismatch. */
export function expectWireShape(schema: TSchema, body: unknown, what = 'body'): void {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(closed(schema) as object);
    validators.set(schema, validate);
  }
  const valid = validate(body);
  const problems = (validate.errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
  );
  expect(problems, `${what}: ${JSON.stringify(body)}`).toEqual([]);
  expect(valid).toBe(true);
}
