// Entry: finishes a sign-in (/console/callback), starts one when there is no session, then
// renders the console.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { currentSession, finishSignIn, refreshSession, startSignIn } from './auth.ts';
import { BASE } from './router.ts';
import './styles.css';

const root = createRoot(document.getElementById('root')!);

function showFailure(message: string) {
  root.render(
    <main className="signin-failure">
      <h1>Sign-in failed</h1>
      <p role="alert">{message}</p>
      <button type="button" onClick={() => void startSignIn(BASE)}>
        Sign in again
      </button>
    </main>,
  );
}

function showSignedOut() {
  root.render(
    <main className="signin-failure">
      <h1>You have signed out</h1>
      <button type="button" onClick={() => void startSignIn(BASE)}>
        Sign in
      </button>
    </main>,
  );
}

async function start() {
  if (location.pathname === `${BASE}signed-out` && !currentSession()) return showSignedOut();
  if (location.pathname === `${BASE}callback`) {
    const returnTo = await finishSignIn(new URLSearchParams(location.search));
    history.replaceState(null, '', returnTo);
  }
  let session = currentSession();
  if (session && session.expiresAt <= Date.now()) session = await refreshSession();
  if (!session) return startSignIn();
  root.render(
    <StrictMode>
      <App session={session} />
    </StrictMode>,
  );
}

start().catch((error: unknown) =>
  showFailure(error instanceof Error ? error.message : String(error)),
);
