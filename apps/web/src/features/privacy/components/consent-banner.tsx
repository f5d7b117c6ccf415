import { useId } from 'react';
import { allDenied, allGranted, type ConsentChoices } from '@minside/domain';
import button from '../../../components/button.module.css';
import styles from './consent-banner.module.css';

export interface ConsentBannerProps {
  onChoose(choices: ConsentChoices): void;
  /** "Tilpass": the full dialog, purpose by purpose. */
  onCustomise(): void;
}

/**
 * The first-visit question (issue 25.9): a bar at the bottom of the page instead of a modal on
 * top of it, so the person can do what they came for first and answer when they like. Until
 * they answer nothing that needs consent runs, exactly as with the dialog. "Godta alle" and
 * "Avslå alle" are equally prominent.
 */
export function ConsentBanner({ onChoose, onCustomise }: ConsentBannerProps) {
  const headingId = useId();
  return (
    <section className={styles.banner} aria-labelledby={headingId}>
      <div className={styles.inner}>
        <div className={styles.text}>
          <h2 id={headingId} className={styles.heading}>
            Vi bruker informasjonskapsler
          </h2>
          <p className={styles.body}>
            Noen trengs for at Min Side skal virke. Med ditt samtykke bruker vi dem også til statistikk, markedsføring og personlig tilpasning. Valget kan du endre nederst på siden.
          </p>
        </div>
        <div className={styles.actions}>
          <button type="button" className={`${button.button} ${button.primary}`} onClick={() => onChoose(allGranted)}>
            Godta alle
          </button>
          <button type="button" className={`${button.button} ${button.primary}`} onClick={() => onChoose(allDenied)}>
            Avslå alle
          </button>
          <button type="button" className={`${button.button} ${button.secondary}`} onClick={onCustomise}>
            Tilpass
          </button>
        </div>
      </div>
    </section>
  );
}
