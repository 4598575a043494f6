// Schema validation at the edge. Query strings, path parameters and headers arrive as text and
// are coerced to the schema's types; JSON bodies are not: `"3"` is not an integer and `123` is
// not a name, and a null stays null. A failure lists at most MAX_LISTED_ERRORS errors and counts
// the rest (bounded-validation.ts): its cost does not grow with the number of errors.
import type { FastifyInstance } from 'fastify';
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import {
  BOUNDED_ERROR_OPTIONS,
  boundAjv,
  validateBounded,
  UNLISTED_COUNT_KEYWORD,
} from '../domain/bounded-validation.ts';

const common: Options = {
  ...BOUNDED_ERROR_OPTIONS,
  removeAdditional: false,
  useDefaults: true,
  strict: false,
};

function compiler(options: Options): Ajv {
  const ajv = boundAjv(new Ajv({ ...common, ...options }));
  addFormats.default(ajv);
  return ajv;
}

/**
 * The validator Fastify is given: Ajv's, with its errors bounded and, when some are not listed,
 * one last issue of keyword UNLISTED_COUNT_KEYWORD carrying their number (`params.count`).
 */
function bounded(validate: ValidateFunction): ValidateFunction {
  const wrapper = ((data: unknown, context?: Parameters<ValidateFunction>[1]) => {
    const issues = validateBounded(validate, data, context);
    if (!issues) {
      wrapper.errors = null;
      return true;
    }
    const { listed, unlisted } = issues;
    wrapper.errors = (
      unlisted > 0
        ? [
            ...listed,
            {
              instancePath: '',
              keyword: UNLISTED_COUNT_KEYWORD,
              params: { count: unlisted },
              message: `and ${unlisted} more`,
            },
          ]
        : listed
    ) as ValidateFunction['errors'];
    return false;
  }) as ValidateFunction;
  // Fastify lets Ajv replace a coerced root value only when it sees schemaEnv.
  Object.assign(wrapper, { schema: validate.schema, schemaEnv: validate.schemaEnv });
  return wrapper;
}

/**
 * A query string's integers are decimal digits (a minus first where the schema allows negative
 * numbers): Ajv's coercion takes whatever Number() takes, so `skip=0x10` was 16, `skip=%20` 0 and
 * `take=1e3` 1000 (issue 46). Checked on the text, before Ajv coerces it.
 */
function decimalIntegers(schema: unknown, validate: ValidateFunction): ValidateFunction {
  const properties = (
    schema as { properties?: Record<string, { type?: unknown; minimum?: number }> }
  ).properties;
  const integers = Object.entries(properties ?? {}).filter(([, p]) => p.type === 'integer');
  if (integers.length === 0) return validate;
  const wrapper = ((data: unknown, context?: Parameters<ValidateFunction>[1]) => {
    const query = data as Record<string, unknown> | null;
    const wrong = integers.filter(([name, p]) => {
      const value = query && Object.hasOwn(query, name) ? query[name] : undefined;
      const pattern = (p.minimum ?? -1) >= 0 ? /^\d{1,16}$/ : /^-?\d{1,16}$/;
      return typeof value === 'string' && !pattern.test(value);
    });
    if (wrong.length === 0) {
      const valid = validate(data, context);
      wrapper.errors = validate.errors;
      return valid;
    }
    wrapper.errors = wrong.map(([name]) => ({
      instancePath: `/${name}`,
      schemaPath: '',
      keyword: 'type',
      params: {},
      message: 'must be an integer written in decimal digits',
    }));
    return false;
  }) as ValidateFunction;
  Object.assign(wrapper, { schema: validate.schema, schemaEnv: validate.schemaEnv });
  return wrapper;
}

export function registerValidation(app: FastifyInstance): void {
  const strict = compiler({ coerceTypes: false });
  const coercing = compiler({ coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const validate = bounded((httpPart === 'body' ? strict : coercing).compile(schema));
    return httpPart === 'querystring' ? decimalIntegers(schema, validate) : validate;
  });
}
