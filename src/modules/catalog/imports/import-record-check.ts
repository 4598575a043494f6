// The checks of one import record that need no database: its shape (the schema of its record
// type, with the same limits as the routes) and the rules between its fields. Record types and
// field names are looked up in Maps and Sets of our own, never as properties of a plain object:
// "constructor", "toString" or "__proto__" are names a file may hold, not lookups into
// Object.prototype (issue 46).
import { Ajv } from 'ajv';
import { recordIssues } from './import-problem-words.ts';
import {
  BOUNDED_ERROR_OPTIONS,
  boundAjv,
  MAX_LISTED_ERRORS,
  validateBounded,
} from '../../../domain/bounded-validation.ts';
import type { FieldError } from '../../../domain/domain-error.ts';
import { REFERENCE_RECORDS, type ReferenceRecord } from './import-reference-schemas.ts';
import { ImportRecord, type ImportAsset } from './import-schemas.ts';

// Errors listed per record are bounded as an answer's are (bounded-validation.ts).
const ajv = boundAjv(new Ajv({ ...BOUNDED_ERROR_OPTIONS, strict: false, coerceTypes: false }));
const validators = new Map<string, ReturnType<typeof ajv.compile>>([
  ['Item', ajv.compile(ImportRecord)],
  ...Object.entries(REFERENCE_RECORDS).map(
    ([type, schema]) => [type, ajv.compile(schema)] as [string, ReturnType<typeof ajv.compile>],
  ),
]);
export const RECORD_TYPES = [...validators.keys()];

const FIELDS = new Map<string, Set<string>>([
  ['Item', new Set(Object.keys(ImportRecord.properties))],
  ...Object.entries(REFERENCE_RECORDS).map(
    ([type, schema]) => [type, new Set(Object.keys(schema.properties))] as [string, Set<string>],
  ),
]);

/** Whether records of `type` (absent: Item) have the field; false for an unknown type. */
export const hasField = (type: unknown, field: string): boolean =>
  FIELDS.get(typeof type === 'string' ? type : 'Item')?.has(field) ?? false;

/** A record's problems: at most MAX_LISTED_ERRORS listed, `omitted` counting the rest. */
export interface RecordProblems {
  problems: FieldError[];
  omitted: number;
}

/** An item record, or one of the catalog's other resources. */
export type AnyRecord = ImportRecord | ReferenceRecord;

export const isItem = (record: AnyRecord): record is ImportRecord =>
  record.RecordType === undefined || record.RecordType === 'Item';

/** Fields naming the same thing in different ways: at most one (exactly one when required). */
function oneOf(
  problems: FieldError[],
  field: string,
  value: Record<string, unknown>,
  names: string[],
  required: boolean,
) {
  const given = names.filter((name) => value[name] != null);
  if (given.length > 1)
    problems.push({
      Field: `${field}${given[1]}`,
      Message: `${given.join(' and ')} name the same thing. Give only one of ${names.join(', ')}.`,
    });
  else if (required && given.length === 0)
    problems.push({
      Field: `${field}${names[0]}`,
      Message: `${field.replace(/\.$/, '') || 'This row'} needs ${names.join(' or ')}.`,
    });
}

function checkAssets(problems: FieldError[], assets: ImportAsset[] | undefined) {
  assets?.forEach((asset, i) =>
    oneOf(problems, `Assets.${i}.`, asset, ['AssetId', 'Sha256'], true),
  );
}

/** The record's problems; none means it is a record of its type that may be written. */
export function checkRecord(value: Record<string, unknown>): RecordProblems {
  const given = Object.hasOwn(value, 'RecordType') ? value.RecordType : undefined;
  const type = given ?? 'Item';
  const validate = typeof type === 'string' ? validators.get(type) : undefined;
  if (!validate)
    return {
      problems: [{ Field: 'RecordType', Message: `must be one of ${RECORD_TYPES.join(', ')}` }],
      omitted: 0,
    };
  const issues = validateBounded(validate, value);
  if (issues) return { problems: recordIssues(issues.listed), omitted: issues.unlisted };
  const problems = ruleProblems(value);
  return problems.length > MAX_LISTED_ERRORS
    ? {
        problems: problems.slice(0, MAX_LISTED_ERRORS),
        omitted: problems.length - MAX_LISTED_ERRORS,
      }
    : { problems, omitted: 0 };
}

/** The rules between the fields of a record of a valid shape. */
function ruleProblems(value: Record<string, unknown>): FieldError[] {
  const problems: FieldError[] = [];
  const record = value as AnyRecord;
  if (record.RecordType === 'Category') {
    const keys = new Set<string>();
    record.CategoryMetadata?.forEach((pair, i) => {
      if (keys.has(pair.Key))
        problems.push({
          Field: `CategoryMetadata.${i}.Key`,
          Message: `The key "${pair.Key}" is given twice in CategoryMetadata. Give each key once.`,
        });
      keys.add(pair.Key);
    });
  }
  if ('Assets' in record) checkAssets(problems, record.Assets);
  if (!isItem(record)) return problems;
  oneOf(problems, '', value, ['CategoryId', 'Category', 'CategoryPath'], false);
  oneOf(problems, '', value, ['BrandId', 'Brand'], false);
  record.Prices?.forEach((price, i) => {
    oneOf(problems, `Prices.${i}.`, price, ['PriceTypeId', 'PriceTypeSymbol'], true);
    if (price.DiscountPrice != null && price.DiscountPrice > price.NormalPrice)
      problems.push({
        Field: `Prices.${i}.DiscountPrice`,
        Message: `The discount price ${price.DiscountPrice} is above the normal price ${price.NormalPrice}. A discount price cannot be more than the price.`,
      });
  });
  record.DynamicAttributes?.forEach((attribute, i) =>
    oneOf(problems, `DynamicAttributes.${i}.`, attribute, ['TypeId', 'TypeName'], true),
  );
  record.Tags?.forEach((tag, i) => oneOf(problems, `Tags.${i}.`, tag, ['Id', 'Name'], true));
  return problems;
}
