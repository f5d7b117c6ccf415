import type { MouseEvent, ReactNode } from 'react';
import { HydrateLater } from '../lib/hydrate-later.tsx';
import { Link, Outlet, ScrollRestoration, useMatches } from '../lib/router/index.ts';
import { ConsentManager } from '../features/privacy/index.ts';
import { useTitle } from '../features/titles/index.ts';
import { useSpinnerState } from '../lib/spinner.ts';
import { AfterEachRoute } from './after-each-route.tsx';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';
import { OfflineNotice, ProgressBar } from './progress.tsx';
import { SpinnerOverlay } from './spinner-overlay.tsx';
import { pathTo } from './paths.ts';
import type { PageHandle } from './routes.tsx';
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
      {/* Hydrated after the page's own content (lib/hydrate-later.tsx). */}
      <HydrateLater>
        <Footer title={title} />
      </HydrateLater>
      {/* After the footer: its first-visit bar sticks to the bottom of the window and ends below the footer. */}
      <ConsentManager />
    </div>
  );
}

/**
 * The way back from every sub-page of Min Side (issue 25.10), in the shell so no page can
 * forget it: on each page that needs a subscription, except the overview itself. Public and
 * login-only pages have none: without a subscription the overview is not theirs to go back to.
 */
function BackToHome() {
  const handle = useMatches().at(-1)?.handle as PageHandle | undefined;
  if (!handle || handle.key === 'home' || !handle.meta.requiresSubscription) return null;
  return (
    <nav className={styles.back} aria-label="Tilbake">
      <Link to={pathTo('home')}>
        <span aria-hidden="true">← </span>Tilbake til oversikten
      </Link>
    </nav>
  );
}

/** The root route's component. */
export function Layout() {
  return (
    <Shell>
      <ProgressBar />
      <AfterEachRoute />
      <BackToHome />
      <Outlet />
      <ScrollRestoration />
    </Shell>
  );
}

/** Shown while the first route loads: the branded shell with the spinner on (SPEC §4: on at start). */
export function ShellFallback() {
  return <Shell />;
}
