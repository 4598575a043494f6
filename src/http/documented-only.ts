// What the OpenAPI document says of a value that the server checks itself, with an error code of
// its own (404 UnknownCounter, 400 InvalidTimeZone, an OAuth error body), in any letter case, or
// with a message naming the field (a price's type): the document carries the rule as JSON Schema
// (an `enum`, an `anyOf` of required fields), so that validators and generated clients know it,
// while the route's own validation leaves the check to the handler (the keyword that holds the
// rule is not one Ajv reads). An enum holds the canonical spellings.

const DOCUMENTED = 'x-documented';

/** Schema keywords that only the document shows (merged into the schema that holds them). */
export const documentedOnly = (keywords: Record<string, unknown>): Record<string, unknown> => ({
  [DOCUMENTED]: keywords,
});

/** The schema options of a string whose values are one of `values` (in the document). */
export const documentedEnum = (values: readonly string[]): Record<string, unknown> =>
  documentedOnly({ enum: [...values] });

/** A copy of a route schema with the documented-only keywords in place. */
export function withDocumentedKeywords(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withDocumentedKeywords);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === DOCUMENTED) Object.assign(copy, withDocumentedKeywords(value));
    else copy[key] = withDocumentedKeywords(value);
  }
  return copy;
}
