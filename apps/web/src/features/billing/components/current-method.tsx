import type { ReactNode } from 'react';
import { formatNorwegianAccountNumber, type PaymentMethodDetails } from '@minside/domain';
import ui from '../../../components/ui.module.css';
import styles from './current-method.module.css';

/** What the method in use is, with its card or agreement (never more of a card than brand, last four and expiry). */
function detailLines(details: PaymentMethodDetails): string[] {
  const lines: string[] = [];
  if (details.card) {
    const { brand, maskedNumber, expiryMonth, expiryYear } = details.card;
    lines.push(`${brand} ${maskedNumber}`, `Utløper ${String(expiryMonth).padStart(2, '0')}/${String(expiryYear).slice(-2)}`);
  }
  if (details.vippsAgreement) {
    lines.push(details.vippsAgreement.phoneNumber ? `Fast betaling med Vipps fra ${details.vippsAgreement.phoneNumber}` : 'Fast betaling med Vipps');
  }
  if (details.avtaleGiro) {
    lines.push(`Fra konto ${formatNorwegianAccountNumber(details.avtaleGiro.bankAccountNumber)}`);
    lines.push(details.avtaleGiro.status === 'PENDING' ? 'Venter på bekreftelse fra banken. Til da får du fakturaen som giro.' : 'Avtalen er bekreftet av banken.');
  }
  if (details.method === 'INVOICE') lines.push('Du får faktura og betaler selv innen forfallsdato.');
  return lines;
}

export function CurrentMethod({ details, children }: { details: PaymentMethodDetails; children?: ReactNode }) {
  return (
    <section className={styles.current} aria-labelledby="navaerende-metode">
      <h2 id="navaerende-metode" className={styles.eyebrow}>
        Nåværende betalingsmetode
      </h2>
      <p className={styles.method}>{details.label}</p>
      {detailLines(details).map((line) => (
        <p key={line} className={ui.muted}>
          {line}
        </p>
      ))}
      {children ? <div className={ui.actions}>{children}</div> : null}
    </section>
  );
}
