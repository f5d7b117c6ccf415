import type { MouseEvent, ReactNode } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { ConsentManager } from '../features/privacy/index.ts';
import { useTitle } from '../features/titles/index.ts';
import { useSpinnerState } from '../lib/spinner.ts';
import { AfterEachRoute } from './after-each-route.tsx';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';
import { OfflineNotice, ProgressBar } from './progress.tsx';
import { SpinnerOverlay } from './spinner-overlay.tsx';
import { useTitleTheme } from './title-theme.ts';
import styles from './layout.module.css';

function skipToMain(event: MouseEvent<HTMLAnchorElement>) {
  event.preventDefault();
  document.getElementById('main')?.focus();
}

/** SPEC §2 layout: header, a main area with the routed view and the spinner overlay, footer. */
function Shell({ children }: { children?: ReactNode }) {
  const title = useTitle();
  useTitleTheme(title);
  const { showSpinner } = useSpinnerState();

  return (
    <div className={styles.app}>
      <a className={styles.skipLink} href="#main" onClick={skipToMain}>
        Hopp til hovedinnholdet
      </a>
      <Header title={title} />
      <OfflineNotice />
      <main id="main" tabIndex={-1} className={styles.main} aria-busy={showSpinner || undefined}>
        <div className={styles.content}>{children}</div>
        <SpinnerOverlay />
      </main>
      <Footer title={title} />
      {/* After the footer: its first-visit bar sticks to the bottom of the window and ends below the footer. */}
      <ConsentManager />
    </div>
  );
}

/** The root route's component. */
export function Layout() {
  return (
    <Shell>
      <ProgressBar />
      <AfterEachRoute />
      <Outlet />
      <ScrollRestoration />
    </Shell>
  );
}

/** Shown while the first route loads: the branded shell with the spinner on (SPEC §4: on at start). */
export function ShellFallback() {
  return <Shell />;
}
