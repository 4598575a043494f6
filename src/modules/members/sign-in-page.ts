// The server-rendered sign-in page of the authorization endpoint: no script, no external asset,
// one inline style allowed by its hash, and a form that posts only to this page.
import { createHash } from 'node:crypto';

const STYLE = `
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f4f6f8; color: #1d2430; }
  main { background: #fff; padding: 2rem; border-radius: .5rem; box-shadow: 0 1px 4px rgba(0,0,0,.12); box-sizing: border-box; width: min(26rem, 100%); }
  @media (max-width: 30rem) { main { padding: 1.25rem; border-radius: 0; box-shadow: none; min-height: 100vh; } }
  h1 { font-size: 1.3rem; margin: 0 0 1rem; } label { display: block; margin: .8rem 0 .2rem; font-weight: 600; }
  input[type=text], input[type=password] { width: 100%; box-sizing: border-box; padding: .5rem; font: inherit; border: 1px solid #b8c0cc; border-radius: .3rem; }
  button { margin-top: 1.2rem; width: 100%; padding: .6rem; font: inherit; font-weight: 600; border: 0; border-radius: .3rem; background: #2457c5; color: #fff; cursor: pointer; }
  .error { background: #fbe0e0; color: #7a1c1c; padding: .5rem .7rem; border-radius: .3rem; } .error p, .error ul { margin: .2rem 0; } .error a { color: #7a1c1c; } .muted { color: #5b6575; font-size: .9rem; }
  .field-error { color: #7a1c1c; font-size: .9rem; margin: .2rem 0 0; } input[aria-invalid=true] { border-color: #b3261e; border-width: 2px; }
  .hint { color: #5b6575; font-size: .85rem; margin: .2rem 0 0; } a.button { display: block; text-align: center; margin-top: 1.2rem; padding: .6rem; border-radius: .3rem; background: #2457c5; color: #fff; font-weight: 600; text-decoration: none; }
  ul.roles { margin: .3rem 0 0; padding-left: 1.2rem; }
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Only this page's style; the form may post only to this origin (and follow its redirect). */
export const SIGN_IN_CSP = [
  "default-src 'none'",
  `style-src ${sha256(STYLE)}`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export interface SignInPage {
  tenantName: string;
  /** The authorization request, carried in hidden fields. */
  request: Record<string, string>;
  csrfToken: string;
  error?: string;
  username?: string;
  /** Present: the member signed in with a password it must change; ask for a new one. */
  passwordChangeTicket?: string;
}

/** A page that only tells what went wrong (a request that cannot go back to its client). */
export function renderErrorPage(message: string): string {
  return page('Sign-in failed', `<p class="error" role="alert">${escapeHtml(message)}</p>`);
}

export function renderSignInPage(view: SignInPage): string {
  const hidden = Object.entries({ ...view.request, csrf_token: view.csrfToken })
    .map(([n, v]) => `<input type="hidden" name="${escapeHtml(n)}" value="${escapeHtml(v)}">`)
    .join('\n    ');
  const error = view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : '';
  const fields = view.passwordChangeTicket
    ? `<input type="hidden" name="password_change_ticket" value="${escapeHtml(view.passwordChangeTicket)}">
    <p class="muted">Your password was given to you once; choose your own to go on (at least 12 characters).</p>
    <label for="new_password">New password</label>
    <input id="new_password" name="new_password" type="password" autocomplete="new-password" required autofocus>
    <label for="new_password_repeat">New password again</label>
    <input id="new_password_repeat" name="new_password_repeat" type="password" autocomplete="new-password" required>
    <button type="submit">Set password and sign in</button>`
    : `<label for="username">Username</label>
    <input id="username" name="username" type="text" autocomplete="username" required value="${escapeHtml(view.username ?? '')}"${view.username ? '' : ' autofocus'}>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required${view.username ? ' autofocus' : ''}>
    <button type="submit">Sign in</button>`;
  return page(
    `Sign in to ${view.tenantName}`,
    `${error}
  <form method="post" action="/oauth/authorize">
    ${hidden}
    ${fields}
  </form>`,
  );
}

/** A whole page of the sign-in interface: its style, no script, the title as heading. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
  <h1>${escapeHtml(title)}</h1>
  ${body}
</main>
</body>
</html>
`;
}
