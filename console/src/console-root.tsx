// What the entry (main.ts) shows once it knows: the console for a session, or a page that says
// the sign-in failed or that the member signed out, each with a way to sign in again.
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { CONSOLE_BASE, startSignIn, type Session } from './auth.ts';
import { queryClient } from './query.ts';
import './styles.css';

const root = createRoot(document.getElementById('root')!);

export function showConsole(session: Session) {
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App session={session} />
      </QueryClientProvider>
    </StrictMode>,
  );
}

export function showFailure(message: string) {
  root.render(
    <main className="signin-failure">
      <h1>Sign-in failed</h1>
      <p role="alert">{message}</p>
      <button type="button" onClick={() => void startSignIn(CONSOLE_BASE)}>
        Sign in again
      </button>
    </main>,
  );
}

export function showSignedOut() {
  root.render(
    <main className="signin-failure">
      <h1>You have signed out</h1>
      <button type="button" onClick={() => void startSignIn(CONSOLE_BASE)}>
        Sign in
      </button>
    </main>,
  );
}
