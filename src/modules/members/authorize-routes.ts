// The authorization endpoint (RFC 6749 §4.1, PKCE per RFC 7636, S256 only) for the console:
// GET shows the sign-in page, POST checks the form's CSRF token, the credentials and the
// lockout, and sends the browser back to the console with a code. Until the client and its
// redirect URI are known good, errors are shown on the page; after, they go back to the client
// as RFC 6749 §4.1.2.1 parameters (error, error_description, state).
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { parseCookie, stringifySetCookie } from 'cookie';
import { knownApiError } from '../../http/domain-errors.ts';
import { sendError } from '../../http/error-handler.ts';
import type { OpenApiTag } from '../../http/openapi-operations.ts';
import { PageError, RedirectError, checkedRequest } from './authorize-request.ts';
import {
  AuthorizeForm,
  AuthorizeQuery,
  HtmlPage,
  RedirectBack,
  RequestFields,
  type AuthorizeRequest,
} from './authorize-schemas.ts';
import { CONSOLE_CLIENT_ID } from './console-client.ts';
import type { MemberSessions } from './member-sessions.ts';
import { SIGN_IN_FORM_TTL_SECONDS, type SignInFormTokens } from './sign-in-form-tokens.ts';
import { SIGN_IN_CSP, renderErrorPage, renderSignInPage } from './sign-in-page.ts';
import type { MemberGrant, MemberService } from './member-service.ts';
import type { MemberSignIn } from './member-sign-in.ts';

export const signInTag: OpenApiTag = {
  name: 'Sign-in',
  description:
    "The web console's sign-in: the authorization endpoint of the authorization code flow " +
    'with PKCE, answering HTML pages and redirects to the console, not JSON.',
};
const tags = [signInTag.name];
const FORM = 'application/x-www-form-urlencoded';
const COOKIE = 'omni_signin';
const COOKIE_PATH = '/oauth/authorize';

export interface AuthorizeRoutesOptions {
  sessions: MemberSessions;
  formTokens: SignInFormTokens;
  members: MemberService;
  signIn: MemberSignIn;
  /** The server is reached over https (PUBLIC_SCHEME): cookies are Secure. */
  https: boolean;
}

function redirectWith(
  reply: FastifyReply,
  redirectUri: string,
  params: Record<string, string | undefined>,
) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) search.set(name, value);
  return reply
    .code(302)
    .header('Cache-Control', 'no-store')
    .header('Location', `${redirectUri}?${search.toString()}`)
    .send();
}

export const authorizeRoutes: FastifyPluginAsync<AuthorizeRoutesOptions> = async (
  instance,
  { sessions, formTokens, members, signIn, https },
) => {
  await instance.register(formbody);
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const config = { unversioned: true };

  const isSecure = (request: FastifyRequest) => https || request.protocol === 'https';

  const sendPage = (reply: FastifyReply, status: number, html: string) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('Pragma', 'no-cache')
      .header('Content-Security-Policy', SIGN_IN_CSP)
      .send(html);

  /** The sign-in page with a fresh CSRF pair (cookie and hidden field). */
  const showForm = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    query: AuthorizeRequest,
    extra: { error?: string; username?: string; passwordChangeTicket?: string } = {},
  ) => {
    const { nonce, token } = await formTokens.csrf(request.tenant.baseUrl);
    reply.header(
      'Set-Cookie',
      stringifySetCookie({
        name: COOKIE,
        value: nonce,
        path: COOKIE_PATH,
        httpOnly: true,
        sameSite: 'strict',
        secure: isSecure(request),
        maxAge: SIGN_IN_FORM_TTL_SECONDS,
      }),
    );
    const carried: Record<string, string> = {};
    for (const name of Object.keys(RequestFields) as (keyof AuthorizeRequest)[]) {
      const value = query[name];
      if (value !== undefined) carried[name] = value;
    }
    return sendPage(
      reply,
      status,
      renderSignInPage({
        tenantName: request.tenant.name,
        request: carried,
        csrfToken: token,
        ...extra,
      }),
    );
  };

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = knownApiError(error);
    if (known && (known.statusCode === 404 || known.statusCode === 406))
      return sendError(reply, known);
    if (error.validation || ((known ?? error).statusCode ?? 500) < 500)
      return sendPage(reply, 400, renderErrorPage(`The request is not valid: ${error.message}`));
    request.log.error({ err: error }, 'sign-in failed');
    return sendPage(reply, 500, renderErrorPage('The server failed to handle this sign-in.'));
  });

  const handleRequestError = (reply: FastifyReply, error: unknown, query: AuthorizeRequest) => {
    if (error instanceof PageError)
      return sendPage(reply, error.status, renderErrorPage(error.message));
    if (error instanceof RedirectError)
      return redirectWith(reply, query.redirect_uri!, {
        error: error.error,
        error_description: error.message,
        state: query.state,
      });
    throw error;
  };

  /**
   * A request parameter given more than once (RFC 6749 §3.1 forbids it) reaches the schema as a
   * list, which would answer a page; checked first, it gets the answer RFC 6749 §4.1.2.1 asks:
   * a page when it is client_id or redirect_uri, else invalid_request at the redirect URI.
   */
  const refuseRepeated = async (request: FastifyRequest, reply: FastifyReply) => {
    const fields = request.method === 'POST' ? request.body : request.query;
    if (typeof fields !== 'object' || fields === null) return;
    const given = fields as Record<string, unknown>;
    const names = Object.keys(RequestFields) as (keyof AuthorizeRequest)[];
    const repeated = new Set<string>(names.filter((name) => Array.isArray(given[name])));
    if (repeated.size === 0) return;
    const single: AuthorizeRequest = {};
    for (const name of names) {
      const value = given[name];
      if (typeof value === 'string') single[name] = value;
    }
    try {
      checkedRequest(request.tenant.baseUrl, single, repeated);
    } catch (error) {
      return handleRequestError(reply, error, single);
    }
  };

  app.get(
    '/oauth/authorize',
    {
      config,
      preValidation: refuseRepeated,
      schema: {
        tags,
        operationId: 'showSignInPage',
        summary: 'Sign-in page of the authorization code flow with PKCE (the console)',
        description:
          'Answers the HTML sign-in page. client_id must be "console" and redirect_uri one of its addresses (exact match), each given once, else a 400 page tells the error. Every other error goes back to redirect_uri with error, error_description and state (RFC 6749 §4.1.2.1): invalid_request for a missing response_type, a parameter given more than once, a missing or non-S256 PKCE challenge or a state over 1024 characters; unsupported_response_type for a response_type other than code. Unrecognised parameters are ignored (RFC 6749 §3.1).',
        querystring: AuthorizeQuery,
        response: { 200: HtmlPage, 302: RedirectBack, 400: HtmlPage },
      },
    },
    async (request, reply) => {
      const query = request.query;
      try {
        checkedRequest(request.tenant.baseUrl, query);
      } catch (error) {
        return handleRequestError(reply, error, query);
      }
      return showForm(request, reply, 200, query);
    },
  );

  app.post(
    '/oauth/authorize',
    {
      config,
      preValidation: refuseRepeated,
      schema: {
        tags,
        operationId: 'submitSignIn',
        summary: 'Sign in (the form of the sign-in page)',
        description:
          'Checks the CSRF token against its cookie (403 page), the credentials (401 page) and the lockout (429 page with Retry-After, whether or not the username exists), then answers 302 to redirect_uri with code and state. A code is single-use and expires after 60 s.',
        consumes: [FORM],
        body: AuthorizeForm,
        response: {
          302: RedirectBack,
          200: HtmlPage,
          400: HtmlPage,
          401: HtmlPage,
          403: HtmlPage,
          429: HtmlPage,
        },
      },
    },
    async (request, reply) => {
      if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith(FORM))
        return sendPage(reply, 400, renderErrorPage(`The form must be sent as ${FORM}.`));
      const form = request.body;
      let checked;
      try {
        checked = checkedRequest(request.tenant.baseUrl, form);
      } catch (error) {
        return handleRequestError(reply, error, form);
      }
      const base = request.tenant.baseUrl;
      const cookieNonce = parseCookie(request.headers.cookie ?? '')[COOKIE];
      if (!(await formTokens.csrfMatches(base, form.csrf_token, cookieNonce)))
        return showForm(request, reply, 403, form, {
          error: 'The sign-in form expired or did not come from this page. Please sign in again.',
        });

      let member: MemberGrant;
      if (form.password_change_ticket !== undefined) {
        const ticket = await formTokens.readTicket(base, form.password_change_ticket);
        const current = ticket && (await members.grant(request.tenant.id, ticket.memberId));
        if (!ticket || !current || current.version !== ticket.version)
          return showForm(request, reply, 400, form, {
            error: 'The password change expired. Please sign in again.',
          });
        const again = { passwordChangeTicket: form.password_change_ticket };
        if (!form.new_password || form.new_password !== form.new_password_repeat)
          return showForm(request, reply, 400, form, {
            ...again,
            error: 'The two new passwords differ.',
          });
        try {
          member = await members.changePassword(
            request.tenant.id,
            ticket.memberId,
            form.new_password,
          );
        } catch (error) {
          const refusal = knownApiError(error);
          if (refusal?.statusCode === 400)
            return showForm(request, reply, 400, form, { ...again, error: refusal.message });
          throw error;
        }
      } else {
        if (!form.username || !form.password)
          return showForm(request, reply, 400, form, {
            error: 'Enter your username and password.',
            ...(form.username ? { username: form.username } : {}),
          });
        const outcome = await signIn.signIn(
          request.tenant.id,
          form.username,
          form.password,
          request.ip,
        );
        if ('refused' in outcome) {
          if (outcome.refused === 'locked') {
            reply.header('Retry-After', String(outcome.retryAfterSeconds));
            return showForm(request, reply, 429, form, {
              username: form.username,
              error: `Too many failed sign-ins. Try again in ${Math.ceil(outcome.retryAfterSeconds / 60)} minute(s).`,
            });
          }
          return showForm(request, reply, 401, form, {
            username: form.username,
            error: 'Wrong username or password.',
          });
        }
        if (outcome.mustChangePassword)
          return showForm(request, reply, 200, form, {
            passwordChangeTicket: await formTokens.passwordChangeTicket(
              base,
              outcome.member.id,
              outcome.member.version,
            ),
          });
        member = outcome.member;
      }

      const code = await sessions.createCode(request.tenant.id, {
        clientId: CONSOLE_CLIENT_ID,
        redirectUri: checked.redirectUri,
        codeChallenge: checked.codeChallenge,
        memberId: member.id,
      });
      reply.header(
        'Set-Cookie',
        stringifySetCookie({
          name: COOKIE,
          value: '',
          path: COOKIE_PATH,
          httpOnly: true,
          sameSite: 'strict',
          secure: isSecure(request),
          maxAge: 0,
        }),
      );
      return redirectWith(reply, checked.redirectUri, { code, state: checked.state });
    },
  );
};
