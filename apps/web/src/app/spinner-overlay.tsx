import { useSpinnerState } from '../lib/spinner.ts';
import styles from './spinner-overlay.module.css';

/** SPEC §2: while the spinner flag is on, a loading overlay with its message covers the main area. */
export function SpinnerOverlay() {
  const { showSpinner, spinnerMsg } = useSpinnerState();
  if (!showSpinner) return null;
  return (
    <div className={styles.overlay} role="status">
      <span className={styles.ring} aria-hidden="true" />
      {spinnerMsg ? <p className={styles.message}>{spinnerMsg}</p> : <span className="visually-hidden">Laster</span>}
    </div>
  );
}

/** The same spinner, standalone: while the app starts, before the title is known. */
export function BootSpinner({ message }: { message: string }) {
  return (
    <div className={styles.boot} role="status">
      <span className={styles.ring} aria-hidden="true" />
      <p className={styles.message}>{message}</p>
    </div>
  );
}
