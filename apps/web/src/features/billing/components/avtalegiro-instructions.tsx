import { useEffect, useState, type Ref } from 'react';
import type { PaymentMethodDetails } from '@minside/domain';
import button from '../../../components/button.module.css';
import ui from '../../../components/ui.module.css';
import styles from './avtalegiro-instructions.module.css';

type AvtaleGiro = NonNullable<PaymentMethodDetails['avtaleGiro']>;

type CopyState = 'idle' | 'copied' | 'failed';

function canCopy(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.clipboard?.writeText === 'function';
}

/** The KID as the payer types it: monospace, selected whole with one tap, and a copy button where the browser allows it. */
function KidToCopy({ kid }: { kid: string }) {
  const [state, setState] = useState<CopyState>('idle');
  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), 4000);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(kid);
      setState('copied');
    } catch {
      setState('failed');
    }
  }

  return (
    <div className={styles.kidBox}>
      <span className={styles.kidLabel}>KID</span>
      <code className={styles.kid}>{kid}</code>
      {canCopy() ? (
        <button type="button" className={`${button.button} ${button.secondary} ${button.small} ${styles.copy}`} onClick={() => void copy()}>
          {state === 'copied' ? 'Kopiert' : 'Kopier KID'}
        </button>
      ) : null}
      <span className={state === 'failed' ? styles.copyFailed : 'visually-hidden'} role="status">
        {state === 'copied' ? 'KID-nummeret er kopiert.' : state === 'failed' ? 'Vi fikk ikke kopiert. Merk KID-nummeret og kopier det selv.' : ''}
      </span>
    </div>
  );
}

/**
 * Issue 21: an AvtaleGiro agreement waiting for the bank. The payer confirms it in their own
 * netbank with the payee's name and the mandate's KID; the bank then tells us, and it is active.
 */
export function AvtaleGiroInstructions({ agreement, headingRef }: { agreement: AvtaleGiro; headingRef?: Ref<HTMLHeadingElement> }) {
  return (
    <section className={`${ui.panelAccent} ${styles.instructions}`} aria-labelledby="avtalegiro-slik">
      <h2 id="avtalegiro-slik" ref={headingRef} className={`${ui.panelHeading} ${styles.heading}`} tabIndex={-1}>
        Slik bekrefter du AvtaleGiro i nettbanken
      </h2>
      <p className={ui.text}>Avtalen blir ikke aktiv før du har bekreftet den i nettbanken din. Det tar bare et par minutter.</p>
      <ol className={styles.steps}>
        <li>
          <span className={styles.step}>
            Logg inn i nettbanken og åpne <strong>AvtaleGiro</strong>. I noen banker heter det <strong>eFaktura og AvtaleGiro</strong>.
          </span>
        </li>
        <li>
          <span className={styles.step}>
            Søk etter <strong>{agreement.payeeName}</strong> og velg den.
          </span>
          <span className={styles.hint}>
            Finner du den ikke, kan du søke på kontonummeret <span className={styles.number}>{agreement.payeeAccountNumber}</span>.
          </span>
        </li>
        <li>
          <span className={styles.step}>Skriv inn KID-nummeret ditt:</span>
          <KidToCopy kid={agreement.kid} />
        </li>
        <li>
          <span className={styles.step}>Velg kontoen beløpet skal trekkes fra, og et maksbeløp per trekk.</span>
          <span className={styles.hint}>Sett gjerne maksbeløpet litt over det abonnementet koster i dag, så går trekket gjennom også om prisen endrer seg.</span>
        </li>
      </ol>
      <p className={ui.muted}>Når banken har bekreftet avtalen, ser du det her. Da trekkes fakturaene automatisk på forfallsdatoen.</p>
    </section>
  );
}
