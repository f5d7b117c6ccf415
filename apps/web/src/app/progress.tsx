import { useEffect, useState, useSyncExternalStore } from 'react';
import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useNavigation } from '../lib/router/index.ts';
import styles from './layout.module.css';

/** A wait shorter than this is not shown: a bar that flickers on every quick answer is noise. */
const PROGRESS_DELAY_MS = 300;

/** True once `active` has lasted `delayMs`; false again as soon as it ends. */
function useDelayed(active: boolean, delayMs: number): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!active) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), delayMs);
    return () => clearTimeout(timer);
  }, [active, delayMs]);
  return active && shown;
}

/**
 * A thin bar at the top of the window while the app waits for more than PROGRESS_DELAY_MS:
 * a route change (its guard and chunk), a data load or a change being sent (issue 25.11).
 * Buttons say what they are doing themselves ("Sender …"); this says that something is.
 */
export function ProgressBar() {
  const navigating = useNavigation().state !== 'idle';
  const fetching = useIsFetching() > 0;
  const mutating = useIsMutating() > 0;
  const shown = useDelayed(navigating || fetching || mutating, PROGRESS_DELAY_MS);
  return shown ? <div className={styles.progress} role="progressbar" aria-label="Laster" /> : null;
}

function subscribeOnline(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** The browser's own view of the network, updated by its online/offline events. */
function useOnline(): boolean {
  return useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
}

/**
 * Says so while the browser has no network, before the user tries anything that cannot work.
 * A live region that is always in the page (one added with its text is not read out), but not a
 * `status`: an empty one beside a page's own status message would make two.
 */
export function OfflineNotice() {
  const online = useOnline();
  return (
    <div aria-live="polite" aria-atomic="true" className={online ? undefined : styles.offline}>
      {online ? null : 'Du er uten nettforbindelse. Det du gjør nå, blir ikke sendt før nettet er tilbake.'}
    </div>
  );
}
