// The schema of a link field; what a link may be is decided in src/domain/web-link.ts.
import { Type } from 'typebox';
import { WEB_LINK_PATTERN } from '../domain/web-link.ts';

/** A link field: an absolute http(s) URL of at most `maxLength` characters. */
export const WebLink = (maxLength: number) =>
  Type.String({
    minLength: 1,
    maxLength,
    pattern: WEB_LINK_PATTERN,
    description: 'An absolute http:// or https:// URL.',
  });
