// The checks of one import record that need no database: its shape (the ImportRecord schema,
// with the same limits as the item routes) and the rules between its fields.
import { Ajv } from 'ajv';
import { validationErrors } from '../../../domain/validation-issues.ts';
import type { FieldError } from '../../../domain/domain-error.ts';
import { ImportRecord } from './import-schemas.ts';

const validate = new Ajv({ allErrors: true, strict: false, coerceTypes: false }).compile(
  ImportRecord,
);

/** One of two fields naming the same thing (by id or by name), never both. */
function oneOf(
  problems: FieldError[],
  field: string,
  value: Record<string, unknown>,
  byId: string,
  byName: string,
  required: boolean,
) {
  const hasId = value[byId] != null;
  const hasName = value[byName] != null;
  if (hasId && hasName)
    problems.push({ Field: `${field}${byName}`, Message: `give ${byId} or ${byName}, not both` });
  else if (required && !hasId && !hasName)
    problems.push({ Field: `${field}${byId}`, Message: `give ${byId} or ${byName}` });
}

/** The record's problems; none means it is an ImportRecord that may be written. */
export function checkRecord(value: Record<string, unknown>): FieldError[] {
  if (!validate(value)) return validationErrors(validate.errors ?? [], '(record)');
  const record = value as ImportRecord;
  const problems: FieldError[] = [];
  oneOf(problems, '', value, 'CategoryId', 'Category', false);
  oneOf(problems, '', value, 'BrandId', 'Brand', false);
  record.Prices?.forEach((price, i) => {
    oneOf(problems, `Prices.${i}.`, price, 'PriceTypeId', 'PriceTypeSymbol', true);
    if (price.DiscountPrice != null && price.DiscountPrice > price.NormalPrice)
      problems.push({
        Field: `Prices.${i}.DiscountPrice`,
        Message: 'must not be above NormalPrice',
      });
  });
  record.DynamicAttributes?.forEach((attribute, i) =>
    oneOf(problems, `DynamicAttributes.${i}.`, attribute, 'TypeId', 'TypeName', true),
  );
  record.Tags?.forEach((tag, i) => oneOf(problems, `Tags.${i}.`, tag, 'Id', 'Name', true));
  return problems;
}
