import { isRouteErrorResponse, useRouteError } from '../lib/router/index.ts';
import { useEffect } from 'react';
import button from '../components/button.module.css';
import { Page } from '../components/page.tsx';
import styles from './error-pages.module.css';

function useLoggedRouteError(): unknown {
  const error = useRouteError();
  useEffect(() => {
    console.error('Route error', error);
  }, [error]);
  return error;
}

function ReloadButton() {
  return (
    <button type="button" className={`${button.button} ${button.primary}`} onClick={() => window.location.reload()}>
      Last inn siden på nytt
    </button>
  );
}

/** A page failed to load or render: shown inside the shell, header and footer intact. */
export function RouteErrorBoundary() {
  const error = useLoggedRouteError();
  const offline = isRouteErrorResponse(error) ? false : typeof navigator !== 'undefined' && !navigator.onLine;
  return (
    <Page title="Noe gikk galt" lead={offline ? 'Det ser ut til at du er uten nettforbindelse.' : 'Siden kunne ikke vises akkurat nå. Prøv igjen om litt.'}>
      <div>
        <ReloadButton />
      </div>
    </Page>
  );
}

/** Min Side could not start at all (not even the fallback title could be loaded). */
export function StartupError() {
  return (
    <main className={styles.standalone}>
      <h1 className={styles.heading}>Min Side er ikke tilgjengelig akkurat nå</h1>
      <p className={styles.text}>Vi får ikke kontakt med tjenesten. Prøv igjen om litt.</p>
      <ReloadButton />
    </main>
  );
}

export function RootErrorBoundary() {
  useLoggedRouteError();
  return <StartupError />;
}
