import { useId, useRef } from 'react';
import styles from './consent-manager-button.module.css';

export interface ConsentManagerButtonProps {
  className?: string;
}

/**
 * Opens the consent manager (SPEC §2 footer: privacy settings). Placeholder until the privacy
 * issue wires the consent platform: an accessible native dialog that explains what is coming.
 */
export function ConsentManagerButton({ className }: ConsentManagerButtonProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const headingId = useId();

  return (
    <>
      <button type="button" className={className} aria-haspopup="dialog" onClick={() => dialogRef.current?.showModal()}>
        Personverninnstillinger
      </button>
      <dialog ref={dialogRef} className={styles.dialog} aria-labelledby={headingId}>
        <h2 id={headingId} className={styles.heading}>
          Personverninnstillinger
        </h2>
        <p className={styles.text}>
          Her vil du kunne velge hvilke informasjonskapsler og samtykker du godtar. Innstillingene er ikke tilgjengelige ennå.
        </p>
        <div className={styles.actions}>
          <button type="button" className={styles.close} onClick={() => dialogRef.current?.close()}>
            Lukk
          </button>
        </div>
      </dialog>
    </>
  );
}
