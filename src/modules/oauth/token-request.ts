// Reading the form of a token or revocation request: its content type, the client's
// credentials (HTTP Basic or form fields, RFC 6749 §2.3.1), a public client's id, and required
// fields.
import type { FastifyRequest } from 'fastify';
import { invalidRequest, oauthErrors } from './oauth-errors.ts';
import { FORM } from './token-schemas.ts';

export interface ClientCredentials {
  clientId: string;
  secret: string;
  basic: boolean;
}

type ClientFields = { client_id?: string; client_secret?: string };

function decodeFormComponent(value: string): string {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return value;
  }
}

export function requireForm(request: FastifyRequest): void {
  if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith(FORM)) {
    throw invalidRequest(`The request body must be ${FORM}.`);
  }
}

/** Client credentials from HTTP Basic or from the form, never both (RFC 6749 §2.3.1). */
export function clientCredentials(request: FastifyRequest, body: ClientFields): ClientCredentials {
  const header = request.headers.authorization;
  const inForm = body.client_id !== undefined || body.client_secret !== undefined;
  if (header !== undefined) {
    if (inForm)
      throw invalidRequest(
        'Authenticate the client with HTTP Basic or with form fields, not both.',
      );
    const match = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header);
    const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon < 0) {
      throw oauthErrors.notBasicAuthentication();
    }
    return {
      clientId: decodeFormComponent(decoded.slice(0, colon)),
      secret: decodeFormComponent(decoded.slice(colon + 1)),
      basic: true,
    };
  }
  if (body.client_id === undefined || body.client_secret === undefined) {
    throw oauthErrors.clientAuthenticationRequired();
  }
  return { clientId: body.client_id, secret: body.client_secret, basic: false };
}

/** Whether the request names a public client: client_id alone, no secret, no HTTP Basic. */
export function namesPublicClient(request: FastifyRequest, body: ClientFields): boolean {
  return body.client_secret === undefined && request.headers.authorization === undefined;
}

/** A public client names itself with client_id alone: no secret, no HTTP Basic. */
export function publicClientId(
  request: FastifyRequest,
  body: ClientFields,
  expected: string,
): string {
  if (!namesPublicClient(request, body))
    throw invalidRequest('The console is a public client: send client_id without a secret.');
  if (body.client_id !== expected) throw oauthErrors.unknownPublicClient(body.client_id);
  return body.client_id;
}

export function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw invalidRequest(`${name} is required.`);
  return value;
}
