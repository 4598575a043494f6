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
import { addDateTimeFormat } from './date-time-format.ts';

const common: Options = {
  ...BOUNDED_ERROR_OPTIONS,
  removeAdditional: false,
  useDefaults: true,
  strict: false,
};

function compiler(options: Options): Ajv {
  const ajv = boundAjv(new Ajv({ ...common, ...options }));
  addFormats.default(ajv);
  addDateTimeFormat(ajv);
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

interface IntegerProperty {
  type?: unknown;
  minimum?: number;
}

/** How the integers of one part of a request are written, checked on the text. */
interface IntegerText {
  pattern(property: IntegerProperty): RegExp;
  message: string;
}

const unsigned = (property: IntegerProperty) => (property.minimum ?? -1) >= 0;

/**
 * A query string's integers are decimal digits (a minus first where the schema allows negative
 * numbers): Ajv's coercion takes whatever Number() takes, so `skip=0x10` was 16, `skip=%20` 0 and
 * `take=1e3` 1000 (issue 46).
 */
const QUERY_INTEGER: IntegerText = {
  pattern: (property) => (unsigned(property) ? /^\d{1,16}$/ : /^-?\d{1,16}$/),
  message: 'must be an integer written in decimal digits',
};

/**
 * A path's integers (ids) are decimal digits without leading zeros: `/item/0x10`, `/item/+16`,
 * `/item/1e1` and `/item/016` all reached item 16 (issue 52), so one resource had many URLs, and
 * caches and logs keyed on the path saw different resources. Ajv checks the range after.
 */
const PATH_INTEGER: IntegerText = {
  pattern: (property) => (unsigned(property) ? /^(?:0|[1-9]\d{0,15})$/ : /^(?:0|-?[1-9]\d{0,15})$/),
  message: 'must be an integer written in decimal digits, without leading zeros',
};

/** Checks the text of the schema's integer properties before Ajv coerces it (to a Number). */
function decimalIntegers(
  schema: unknown,
  validate: ValidateFunction,
  text: IntegerText,
): ValidateFunction {
  const properties = (schema as { properties?: Record<string, IntegerProperty> }).properties;
  const integers = Object.entries(properties ?? {})
    .filter(([, p]) => p.type === 'integer')
    .map(([name, p]) => ({ name, pattern: text.pattern(p) }));
  if (integers.length === 0) return validate;
  const wrapper = ((data: unknown, context?: Parameters<ValidateFunction>[1]) => {
    const values = data as Record<string, unknown> | null;
    const wrong = integers.filter(({ name, pattern }) => {
      const value = values && Object.hasOwn(values, name) ? values[name] : undefined;
      return typeof value === 'string' && !pattern.test(value);
    });
    if (wrong.length === 0) {
      const valid = validate(data, context);
      wrapper.errors = validate.errors;
      return valid;
    }
    wrapper.errors = wrong.map(({ name }) => ({
      instancePath: `/${name}`,
      schemaPath: '',
      keyword: 'type',
      params: {},
      message: text.message,
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
    if (httpPart === 'querystring') return decimalIntegers(schema, validate, QUERY_INTEGER);
    if (httpPart === 'params') return decimalIntegers(schema, validate, PATH_INTEGER);
    return validate;
  });
}
