// Links that clients store and others follow (an item's PublicWebLink, a profile's PhotoUrl): an
// absolute http or https URL and nothing else. Shops and reports put them in <a href> and <img
// src>, where a javascript:, data: or vbscript: URL would run script in their pages, and file:,
// relative or scheme-relative ones mean nothing to a shopper.

/**
 * http:// or https:// (any case), a non-empty authority, then a path, query or fragment; no
 * whitespace or control characters anywhere, which browsers strip before reading the scheme
 * ("java\tscript:"). A JSON Schema pattern, so every validator of a schema holding it (the
 * routes' and the import's) applies the same rule, and the OpenAPI document shows it.
 */
export const WEB_LINK_PATTERN =
  '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s\\x00-\\x1f\\x7f/?#]+([/?#][^\\s\\x00-\\x1f\\x7f]*)?$';

/** What a field holding anything else is told (validation errors name it, not the pattern). */
export const WEB_LINK_MESSAGE = 'must be an absolute http:// or https:// URL';

const webLink = new RegExp(WEB_LINK_PATTERN, 'u');

export function isWebLink(value: string): boolean {
  return webLink.test(value);
}
