// Schemas of the authorization endpoint (/oauth/authorize): the authorization request's
// parameters, the sign-in form, and the HTML and redirect answers.
import { Type } from 'typebox';
import { documentedEnum } from '../../http/documented-only.ts';

// The one value some fields take is documented as an enum; the page tells what else was sent.
const field = (description: string, only?: string) =>
  Type.Optional(Type.String({ description, ...(only ? documentedEnum([only]) : {}) }));
export const RequestFields = {
  response_type: field('Only "code".', 'code'),
  client_id: field('Only "console" (a public client).', 'console'),
  redirect_uri: field('<tenant base URL>/console/ or <tenant base URL>/console/callback'),
  code_challenge: field('base64url SHA-256 of the code verifier (43 characters)'),
  code_challenge_method: field('Only "S256"; "plain" is refused.', 'S256'),
  state: field('Returned unchanged with the code or the error (at most 1024 characters).'),
};
export const AuthorizeQuery = Type.Object(RequestFields, { title: 'AuthorizeQuery' });
export const AuthorizeForm = Type.Object(
  {
    ...RequestFields,
    csrf_token: field('From the sign-in page; must match its cookie.'),
    username: field('The member’s username.'),
    password: field('The member’s password.'),
    password_change_ticket: field('From the page that asks for a new password.'),
    new_password: field('A new password, when the page asks for one.'),
    new_password_repeat: field('The same new password again.'),
  },
  { title: 'AuthorizeForm' },
);
export type AuthorizeRequest = { [K in keyof typeof RequestFields]?: string | undefined };
export const HtmlPage = {
  description: 'The sign-in page (HTML) or a page telling what went wrong',
  content: { 'text/html': { schema: { type: 'string' } } },
};
export const RedirectBack = {
  type: 'null',
  description:
    'Back to redirect_uri with code and state, or with error, error_description and state',
  headers: {
    Location: {
      type: 'string',
      format: 'uri',
      required: true,
      description: 'redirect_uri with the answer in its query',
    },
  },
};
