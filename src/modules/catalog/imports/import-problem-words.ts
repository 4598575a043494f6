// The per-row problems of an import in a retailer's words: each a sentence that names the field
// (as the file's column or key names it) or the value at fault, and says what to do. The
// per-row results carry them as they are, and the console shows them as they are (docs/api.md,
// "Catalog import").
import type { FieldError } from '../../../domain/domain-error.ts';
import { fieldOf, type ValidationIssue } from '../../../domain/validation-issues.ts';
import { WEB_LINK_MESSAGE, WEB_LINK_PATTERN } from '../../../domain/web-link.ts';

/** What to do about a name the catalog lacks, said the same way for every kind. */
export const CREATE_MISSING_ADVICE =
  'Create it in the catalog first, or import again with the option to create what the catalog lacks (createMissing).';

const TYPE_WORDS: Record<string, string> = {
  number: 'a number',
  integer: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'empty',
};

/** One schema complaint about `field` as a sentence. */
function sentenceOf(issue: ValidationIssue, field: string): string {
  const p = issue.params;
  switch (issue.keyword) {
    case 'required':
      return `${field} is missing. Every row needs a ${field}.`;
    case 'additionalProperties':
      return `${field} is not a field the import knows. Remove it, or check its spelling (fields are written like Title, SKU, Brand, CategoryPath).`;
    case 'minLength':
      return Number(p.limit) <= 1
        ? `${field} is empty. Fill it in.`
        : `${field} is shorter than ${String(p.limit)} characters. Make it longer.`;
    case 'maxLength':
      return `${field} is longer than ${String(p.limit)} characters. Shorten it.`;
    case 'minimum':
    case 'exclusiveMinimum':
      return Number(p.limit) === 0
        ? `${field} cannot be ${issue.keyword === 'minimum' ? 'negative' : 'zero or negative'}. Give an amount of 0 or more.`
        : `${field} must be at least ${String(p.limit)}.`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `${field} must be at most ${String(p.limit)}.`;
    case 'type':
      return `${field} must be ${TYPE_WORDS[String(p.type)] ?? String(p.type)}.`;
    case 'enum':
      return `${field} must be one of: ${(p.allowedValues as unknown[]).map(String).join(', ')}.`;
    case 'minItems':
      return `${field} needs at least ${String(p.limit)} ${Number(p.limit) === 1 ? 'entry' : 'entries'}.`;
    case 'maxItems':
      return `${field} has more than ${String(p.limit)} entries. Give at most ${String(p.limit)}.`;
    case 'pattern':
      return p.pattern === WEB_LINK_PATTERN
        ? `${field} ${WEB_LINK_MESSAGE}.`
        : `${field} has characters that are not allowed here.`;
    case 'format':
      return `${field} must be ${p.format === 'uri' ? 'a full web address, like https://example.com' : `a valid ${String(p.format)}`}.`;
    default:
      return `${field} ${issue.message ?? 'is not valid'}.`;
  }
}

/** A record's schema complaints (Ajv's) as field errors in sentences. */
export function recordIssues(issues: ValidationIssue[]): FieldError[] {
  return issues.map((issue) => {
    const field = fieldOf(issue, '(record)');
    return { Field: field, Message: sentenceOf(issue, field) };
  });
}
