// Short-lived signed tokens of the sign-in page, made with the server's token signing keys (so
// every instance checks what another made; no server-side state):
//   - the CSRF token (signed double submit): the page's hidden field carries a JWS of a random
//     nonce whose clear value is also set in an HttpOnly, SameSite=Strict cookie; a POST is
//     accepted only when both arrive and match. A page of another origin can neither read the
//     field nor set the cookie.
//   - the password-change ticket: after a sign-in with a password the member must change, the
//     page asks for a new one and carries this ticket (member id and security version) instead
//     of the old password; a change of password moves the version, which spends the ticket.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT, decodeProtectedHeader, jwtVerify } from 'jose';
import type { FormSigningKeys } from './authorization-server.ts';

export const SIGN_IN_FORM_TTL_SECONDS = 600;
const TICKET_TTL_SECONDS = 300;
const CSRF_TYPE = 'signin-csrf+jwt';
const TICKET_TYPE = 'password-change+jwt';

const audienceOf = (baseUrl: string) => `${baseUrl}/oauth/authorize`;

export class SignInFormTokens {
  private readonly keys: FormSigningKeys;
  constructor(keys: FormSigningKeys) {
    this.keys = keys;
  }

  /** A new CSRF pair: the nonce for the cookie and the signed token for the form. */
  async csrf(baseUrl: string): Promise<{ nonce: string; token: string }> {
    const nonce = randomBytes(32).toString('base64url');
    return {
      nonce,
      token: await this.sign(baseUrl, CSRF_TYPE, { n: nonce }, SIGN_IN_FORM_TTL_SECONDS),
    };
  }

  /** Whether the form's token is valid for this tenant and names the cookie's nonce. */
  async csrfMatches(baseUrl: string, token: string | undefined, cookieNonce: string | undefined) {
    if (!token || !cookieNonce) return false;
    const payload = await this.verify(baseUrl, CSRF_TYPE, token);
    if (typeof payload?.n !== 'string') return false;
    const a = Buffer.from(payload.n);
    const b = Buffer.from(cookieNonce);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  passwordChangeTicket(baseUrl: string, memberId: string, version: number): Promise<string> {
    return this.sign(baseUrl, TICKET_TYPE, { sub: memberId, ver: version }, TICKET_TTL_SECONDS);
  }

  async readTicket(
    baseUrl: string,
    ticket: string,
  ): Promise<{ memberId: string; version: number } | undefined> {
    const payload = await this.verify(baseUrl, TICKET_TYPE, ticket);
    if (typeof payload?.sub !== 'string' || typeof payload.ver !== 'number') return undefined;
    return { memberId: payload.sub, version: payload.ver };
  }

  private sign(
    baseUrl: string,
    type: string,
    claims: Record<string, unknown>,
    ttlSeconds: number,
  ): Promise<string> {
    const { kid, key } = this.keys.signingKey();
    return new SignJWT(claims)
      .setProtectedHeader({ alg: this.keys.algorithm, kid, typ: type })
      .setIssuer(baseUrl)
      .setAudience(audienceOf(baseUrl))
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(key);
  }

  private async verify(
    baseUrl: string,
    type: string,
    token: string,
  ): Promise<Record<string, unknown> | undefined> {
    try {
      const key = this.keys.verificationKey(decodeProtectedHeader(token).kid);
      if (!key) return undefined;
      const { payload } = await jwtVerify(token, key, {
        issuer: baseUrl,
        audience: audienceOf(baseUrl),
        algorithms: [this.keys.algorithm],
        typ: type,
      });
      return payload;
    } catch {
      return undefined;
    }
  }
}
