// Entry: finishes a sign-in (/console/callback), starts one when there is no session, then
// renders the console. This entry holds only the sign-in (auth.ts): React, the console and its
// styles are a chunk of their own (console-root.tsx), fetched once there is a session, so a
// signed-out visit goes on to the sign-in page after a few kilobytes.
import { CONSOLE_BASE, currentSession, finishSignIn, refreshSession, startSignIn } from './auth.ts';

const consoleRoot = () => import('./console-root.tsx');

async function start() {
  if (location.pathname === `${CONSOLE_BASE}signed-out` && !currentSession())
    return (await consoleRoot()).showSignedOut();
  if (location.pathname === `${CONSOLE_BASE}callback`) {
    const returnTo = await finishSignIn(new URLSearchParams(location.search));
    history.replaceState(null, '', returnTo);
  }
  let session = currentSession();
  if (!session) return startSignIn();
  // Fetched while the session is checked or renewed.
  const root = consoleRoot();
  if (session.expiresAt <= Date.now()) session = await refreshSession();
  if (!session) return startSignIn();
  (await root).showConsole(session);
}

start().catch(async (error: unknown) =>
  (await consoleRoot()).showFailure(error instanceof Error ? error.message : String(error)),
);
