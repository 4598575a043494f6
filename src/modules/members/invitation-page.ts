// The invitation page of the sign-in interface: the invitee chooses a name, a username and a
// password, each field with its rule under it and its error (in plain words) next to it. Same
// style, CSP and no-script rule as the sign-in page (sign-in-page.ts).
import { escapeHtml, page } from './sign-in-page.ts';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './passwords.ts';
import { roleById } from './roles.ts';

export type InvitationField = 'name' | 'username' | 'password' | 'password_repeat';

export interface InvitationFormView {
  tenantName: string;
  token: string;
  email: string;
  invitedBy: string | null;
  roles: string[];
  expiresAt: Date;
  /** What the form shows; a password only after a second password that differed from it. */
  values: { name: string; username: string; password?: string };
  /** Field → what is wrong with it, in a sentence. */
  errors?: Partial<Record<InvitationField, string>>;
}

const HINTS: Record<InvitationField, string> = {
  name: 'As the other members will see it.',
  username:
    'What you will sign in with: 3 to 64 characters, letters, digits and . _ @ + - (not first).',
  password: `At least ${MIN_PASSWORD_LENGTH} characters (at most ${MAX_PASSWORD_LENGTH}), 5 of them different, without your username, a run such as "123456" or "qwerty", or a well-known password.`,
  password_repeat: 'The same password again.',
};

const LABELS: Record<InvitationField, string> = {
  name: 'Your name',
  username: 'Username',
  password: 'Password',
  password_repeat: 'Password again',
};

function field(
  name: InvitationField,
  type: 'text' | 'password',
  autocomplete: string,
  value: string,
  error: string | undefined,
  autofocus: boolean,
): string {
  const hintId = `${name}-hint`;
  const errorId = `${name}-error`;
  const described = error ? `${errorId} ${hintId}` : hintId;
  // The error between the label and the field: in view with the field that takes the focus,
  // above a phone's keyboard.
  return `<label for="${name}">${LABELS[name]}</label>
    ${error ? `<p class="field-error" id="${errorId}">${escapeHtml(error)}</p>` : ''}
    <input id="${name}" name="${name}" type="${type}" autocomplete="${autocomplete}" required aria-describedby="${described}"${error ? ' aria-invalid="true"' : ''}${value ? ` value="${escapeHtml(value)}"` : ''}${autofocus ? ' autofocus' : ''}>
    <p class="hint" id="${hintId}">${escapeHtml(HINTS[name])}</p>`;
}

const utc = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export function renderInvitationForm(view: InvitationFormView): string {
  const errors = view.errors ?? {};
  const order: InvitationField[] = ['name', 'username', 'password', 'password_repeat'];
  // The first field with an error takes the focus; without errors, the first empty one.
  const focused =
    order.find((f) => errors[f]) ??
    (!view.values.name ? 'name' : !view.values.username ? 'username' : 'password');
  const roles = view.roles
    .map((id) => `<li>${escapeHtml(roleById(id)?.Description ?? id)}</li>`)
    .join('');
  const who = view.invitedBy ? `${escapeHtml(view.invitedBy)} invited you` : 'You are invited';
  // At the top, every error in its words, each a link to its field (the form may be below the
  // fold on a phone).
  const problems = order.filter((f) => errors[f]);
  const banner =
    problems.length > 0
      ? `<div class="error" role="alert"><p>${problems.length === 1 ? 'One field needs' : `${problems.length} fields need`} attention:</p>
    <ul>${problems.map((f) => `<li><a href="#${f}">${LABELS[f]}: ${escapeHtml(errors[f]!)}</a></li>`).join('')}</ul></div>`
      : '';
  return page(
    `Join ${view.tenantName}`,
    `${banner}
  <p>${who} (<strong>${escapeHtml(view.email)}</strong>) to the back office of ${escapeHtml(view.tenantName)}, with these roles:</p>
  <ul class="roles">${roles}</ul>
  <p class="muted">Choose how you will sign in. This link works once, until ${utc(view.expiresAt)}.</p>
  <form method="post" action="/oauth/invitation">
    <input type="hidden" name="token" value="${escapeHtml(view.token)}">
    ${field('name', 'text', 'name', view.values.name, errors.name, focused === 'name')}
    ${field('username', 'text', 'username', view.values.username, errors.username, focused === 'username')}
    ${field('password', 'password', 'new-password', view.values.password ?? '', errors.password, focused === 'password')}
    ${field('password_repeat', 'password', 'new-password', '', errors.password_repeat, focused === 'password_repeat')}
    <button type="submit">Create my account</button>
  </form>`,
  );
}

/** After accepting: the member exists; the console's sign-in is one link away. */
export function renderInvitationAccepted(tenantName: string, username: string): string {
  return page(
    `Welcome to ${tenantName}`,
    `<p role="status">Your account <strong>${escapeHtml(username)}</strong> is ready.</p>
  <p>Sign in with your username and the password you just chose.</p>
  <a class="button" href="/console/" autofocus>Sign in to the console</a>`,
  );
}

/** The link cannot be used (unknown, used, revoked, expired): why, and what to do. */
export function renderInvitationRefused(message: string): string {
  return page(
    'This invitation cannot be used',
    `<p class="error" role="alert">${escapeHtml(message)}</p>`,
  );
}
