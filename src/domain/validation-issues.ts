// A JSON Schema validator's complaints (Ajv's, which Fastify's and the import's validators are)
// as field errors: the field by its dotted path, the problem in words.
import type { FieldError } from './domain-error.ts';
import { WEB_LINK_MESSAGE, WEB_LINK_PATTERN } from './web-link.ts';

export interface ValidationIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** The field an issue is about, by its dotted path; `context` when it names none. */
export function fieldOf(issue: ValidationIssue, context: string | undefined): string {
  const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const child =
    issue.keyword === 'required'
      ? String(issue.params.missingProperty)
      : issue.keyword === 'additionalProperties'
        ? String(issue.params.additionalProperty)
        : '';
  const field = [path, child].filter(Boolean).join('.');
  return field || (context === 'body' ? '(body)' : (context ?? '(request)'));
}

function messageOf(issue: ValidationIssue): string {
  if (issue.keyword === 'additionalProperties') return 'is not a known field';
  if (issue.keyword === 'required') return 'is required';
  // Said in words, not as the pattern's regular expression.
  if (issue.keyword === 'pattern' && issue.params.pattern === WEB_LINK_PATTERN)
    return WEB_LINK_MESSAGE;
  return issue.message ?? 'is invalid';
}

export function validationErrors(
  issues: ValidationIssue[],
  context: string | undefined,
): FieldError[] {
  return issues.map((issue) => ({ Field: fieldOf(issue, context), Message: messageOf(issue) }));
}
