// The checks of one import record that need no database: its shape (the schema of its record
// type, with the same limits as the routes) and the rules between its fields.
import { Ajv } from 'ajv';
import { validationErrors } from '../../../domain/validation-issues.ts';
import type { FieldError } from '../../../domain/domain-error.ts';
import { REFERENCE_RECORDS, type ReferenceRecord } from './import-reference-schemas.ts';
import { ImportRecord, type ImportAsset } from './import-schemas.ts';

const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false });
const validators = {
  Item: ajv.compile(ImportRecord),
  ...Object.fromEntries(
    Object.entries(REFERENCE_RECORDS).map(([type, schema]) => [type, ajv.compile(schema)]),
  ),
} as Record<string, ReturnType<typeof ajv.compile>>;
export const RECORD_TYPES = Object.keys(validators);

const FIELDS: Record<string, Set<string>> = {
  Item: new Set(Object.keys(ImportRecord.properties)),
  ...Object.fromEntries(
    Object.entries(REFERENCE_RECORDS).map(([type, schema]) => [
      type,
      new Set(Object.keys(schema.properties)),
    ]),
  ),
};

/** Whether records of `type` (absent: Item) have the field; false for an unknown type. */
export const hasField = (type: unknown, field: string): boolean =>
  FIELDS[typeof type === 'string' ? type : 'Item']?.has(field) ?? false;

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
      Message: `give ${names.slice(0, -1).join(', ')} or ${names.at(-1)}, ${names.length > 2 ? 'only one' : 'not both'}`,
    });
  else if (required && given.length === 0)
    problems.push({ Field: `${field}${names[0]}`, Message: `give ${names.join(' or ')}` });
}

function checkAssets(problems: FieldError[], assets: ImportAsset[] | undefined) {
  assets?.forEach((asset, i) =>
    oneOf(problems, `Assets.${i}.`, asset, ['AssetId', 'Sha256'], true),
  );
}

/** The record's problems; none means it is a record of its type that may be written. */
export function checkRecord(value: Record<string, unknown>): FieldError[] {
  const type = value.RecordType ?? 'Item';
  const validate = typeof type === 'string' ? validators[type] : undefined;
  if (!validate)
    return [{ Field: 'RecordType', Message: `must be one of ${RECORD_TYPES.join(', ')}` }];
  if (!validate(value)) return validationErrors(validate.errors ?? [], '(record)');
  const problems: FieldError[] = [];
  const record = value as AnyRecord;
  if (record.RecordType === 'Category') {
    const keys = new Set<string>();
    record.CategoryMetadata?.forEach((pair, i) => {
      if (keys.has(pair.Key))
        problems.push({ Field: `CategoryMetadata.${i}.Key`, Message: 'is given twice' });
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
        Message: 'must not be above NormalPrice',
      });
  });
  record.DynamicAttributes?.forEach((attribute, i) =>
    oneOf(problems, `DynamicAttributes.${i}.`, attribute, ['TypeId', 'TypeName'], true),
  );
  record.Tags?.forEach((tag, i) => oneOf(problems, `Tags.${i}.`, tag, ['Id', 'Name'], true));
  return problems;
}
