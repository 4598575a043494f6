// The invitation page of the sign-in interface (/oauth/invitation): the link of an invitation
// e-mail opens it; the invitee chooses a name, a username and a password and becomes a member.
// HTML pages like the sign-in page (no script, its CSP), never the API's JSON error body.
//
// No CSRF cookie: the form carries the invitation's token, a single-use secret, and a forged post
// would have to know it; whoever knows it can accept the invitation from anywhere anyway.
import type { FastifyError, FastifyPluginAsync, FastifyReply } from 'fastify';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DomainError } from '../../domain/domain-error.ts';
import { knownApiError } from '../../http/domain-errors.ts';
import { sendError } from '../../http/error-handler.ts';
import type { OpenApiTag } from '../../http/openapi-operations.ts';
import { HtmlPage } from './authorize-schemas.ts';
import {
  renderInvitationAccepted,
  renderInvitationForm,
  renderInvitationRefused,
  type InvitationField,
  type InvitationFormView,
} from './invitation-page.ts';
import {
  INVITATION_PATH,
  type MemberInvitations,
  type OpenInvitation,
} from './member-invitations.ts';
import { USERNAME_PATTERN } from './member-schemas.ts';
import { SIGN_IN_CSP, renderErrorPage } from './sign-in-page.ts';

const FORM = 'application/x-www-form-urlencoded';
const field = (description: string) => Type.Optional(Type.String({ description }));

export const InvitationPageQuery = Type.Object(
  { token: field('The token of the invitation e-mail’s link.') },
  { title: 'InvitationPageQuery' },
);
export const InvitationForm = Type.Object(
  {
    token: field('The token of the invitation e-mail’s link (a hidden field).'),
    name: field('The invitee’s name.'),
    username: field('The username the invitee chooses.'),
    password: field('The password the invitee chooses (the password policy applies).'),
    password_repeat: field('The same password again.'),
  },
  { title: 'InvitationForm' },
);

const USERNAME = new RegExp(USERNAME_PATTERN);

/** A field's error from the service's refusal (its Errors name API fields). */
const FIELD_OF: Record<string, InvitationField> = {
  Username: 'username',
  Name: 'name',
  Password: 'password',
};

const sentence = (text: string) => {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
};

export const invitationPageRoutes: FastifyPluginAsync<{
  invitations: MemberInvitations;
  tag: OpenApiTag;
}> = async (instance, { invitations, tag }) => {
  await instance.register(formbody);
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const tags = [tag.name];
  const config = { unversioned: true };

  const sendPage = (reply: FastifyReply, status: number, html: string) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('Pragma', 'no-cache')
      .header('Referrer-Policy', 'no-referrer')
      .header('Content-Security-Policy', SIGN_IN_CSP)
      .send(html);

  /** An unusable link: 404 (unknown, used, revoked) or 410 (expired), with what to do. */
  const refuseLink = (reply: FastifyReply, error: unknown) => {
    if (error instanceof DomainError && error.code === 'InvitationNotFound')
      return sendPage(reply, 404, renderInvitationRefused(error.message));
    if (error instanceof DomainError && error.code === 'InvitationExpired')
      return sendPage(reply, 410, renderInvitationRefused(error.message));
    throw error;
  };

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = knownApiError(error);
    if (known && (known.statusCode === 404 || known.statusCode === 406))
      return sendError(reply, known);
    if (error.validation || ((known ?? error).statusCode ?? 500) < 500)
      return sendPage(reply, 400, renderErrorPage(`The request is not valid: ${error.message}`));
    request.log.error({ err: error }, 'invitation page failed');
    return sendPage(reply, 500, renderErrorPage('The server failed to handle this invitation.'));
  });

  const showForm = (
    reply: FastifyReply,
    status: number,
    tenantName: string,
    token: string,
    invitation: OpenInvitation,
    values: InvitationFormView['values'],
    errors?: Partial<Record<InvitationField, string>>,
  ) =>
    sendPage(
      reply,
      status,
      renderInvitationForm({
        tenantName,
        token,
        email: invitation.email,
        invitedBy: invitation.invitedBy,
        roles: invitation.roles,
        expiresAt: invitation.expiresAt,
        values,
        ...(errors ? { errors } : {}),
      }),
    );

  app.get(
    INVITATION_PATH,
    {
      config,
      schema: {
        tags,
        operationId: 'showInvitationPage',
        summary:
          'Invitation page: choose a username and password (the link of an invitation e-mail)',
        description:
          'Answers the HTML page where the invitee chooses a name, a username (the invited address is offered when it is a valid username) and a password. ' +
          'A token that is unknown, used already, revoked or replaced by a resend answers a 404 page; an expired one a 410 page.',
        querystring: InvitationPageQuery,
        response: { 200: HtmlPage, 400: HtmlPage, 404: HtmlPage, 410: HtmlPage },
      },
    },
    async (request, reply) => {
      const token = request.query.token ?? '';
      let invitation: OpenInvitation;
      try {
        invitation = await invitations.open(request.tenant.id, token);
      } catch (error) {
        return refuseLink(reply, error);
      }
      return showForm(reply, 200, request.tenant.name, token, invitation, {
        name: invitation.name ?? '',
        username: USERNAME.test(invitation.email) ? invitation.email : '',
      });
    },
  );

  app.post(
    INVITATION_PATH,
    {
      config,
      schema: {
        tags,
        operationId: 'acceptInvitation',
        summary: 'Accept an invitation (the form of the invitation page)',
        description:
          'Makes the member with the invitation’s roles and the chosen name, username and password, spends the invitation, and answers a page that links to the console’s sign-in. ' +
          'A refused field answers the form again with the error under that field: 400 (blank name, a username outside the rules, passwords that differ, a password against the policy) or 409 (the username is taken). ' +
          'An unusable token answers as on GET (404, 410).',
        consumes: [FORM],
        body: InvitationForm,
        response: { 200: HtmlPage, 400: HtmlPage, 404: HtmlPage, 409: HtmlPage, 410: HtmlPage },
      },
    },
    async (request, reply) => {
      if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith(FORM))
        return sendPage(reply, 400, renderErrorPage(`The form must be sent as ${FORM}.`));
      const form = request.body;
      const token = form.token ?? '';
      const tenantId = request.tenant.id;
      let invitation: OpenInvitation;
      try {
        invitation = await invitations.open(tenantId, token);
      } catch (error) {
        return refuseLink(reply, error);
      }
      const values = { name: form.name ?? '', username: form.username ?? '' };
      const again = (
        status: number,
        errors: Partial<Record<InvitationField, string>>,
        shown: InvitationFormView['values'] = values,
      ) => showForm(reply, status, request.tenant.name, token, invitation, shown, errors);

      const missing: Partial<Record<InvitationField, string>> = {};
      if (!values.name.trim()) missing.name = 'Enter your name.';
      if (!values.username.trim()) missing.username = 'Choose a username.';
      if (!form.password) missing.password = 'Choose a password.';
      else if (form.password !== form.password_repeat) {
        missing.password_repeat =
          'The two passwords differ. Type the password of the field above again here.';
        // The password chosen stays (this answer is never stored: no-store): only the second
        // field is typed again.
        if (Object.keys(missing).length === 1)
          return again(400, missing, { ...values, password: form.password });
      }
      if (Object.keys(missing).length > 0) return again(400, missing);

      try {
        const member = await invitations.accept(tenantId, token, {
          name: values.name,
          username: values.username,
          password: form.password!,
        });
        return sendPage(reply, 200, renderInvitationAccepted(request.tenant.name, member.Username));
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        if (error.code === 'InvitationNotFound' || error.code === 'InvitationExpired')
          return refuseLink(reply, error);
        if (error.code === 'DuplicateUsername')
          return again(409, {
            username: `The username "${values.username.trim().toLowerCase()}" is taken. Choose another one.`,
          });
        if (error.code === 'AlreadyMember') {
          return sendPage(reply, 409, renderInvitationRefused(`${error.message} Sign in instead.`));
        }
        const fieldError = error.errors?.[0];
        const target = fieldError && FIELD_OF[fieldError.Field];
        if (error.kind === 'invalid' && target)
          return again(400, { [target]: sentence(error.message) });
        throw error;
      }
    },
  );
};
