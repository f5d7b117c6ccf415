import type { ReactNode } from 'react';
import type { PaymentMethodDetails } from '@minside/domain';
import { Badge } from '../../../components/badge.tsx';
import ui from '../../../components/ui.module.css';
import styles from './current-method.module.css';

/** What the method in use is, with its card or agreement (never more of a card than brand, last four and expiry). */
function detailLines(details: PaymentMethodDetails): string[] {
  const lines: string[] = [];
  if (details.card) {
    const { brand, maskedNumber, expiryMonth, expiryYear } = details.card;
    lines.push(`${brand} ${maskedNumber}`, `Utløper ${String(expiryMonth).padStart(2, '0')}/${String(expiryYear).slice(-2)}`);
    // A card kept by an earlier payment provider: the one the portal has now keeps none, so nothing is drawn from it.
    if (details.method === 'CARD' && !details.choices.includes('SWEDBANK-PPG')) {
      lines.push('Vi kan ikke lenger trekke fra dette kortet. Fakturaene kommer på e-post, og du kan betale dem med Vipps eller kort. Vil du betale fast, velg Vipps eller AvtaleGiro.');
    }
  }
  if (details.vippsAgreement) {
    lines.push(details.vippsAgreement.phoneNumber ? `Fast betaling med Vipps fra ${details.vippsAgreement.phoneNumber}` : 'Fast betaling med Vipps');
  }
  if (details.method === 'INVOICE') lines.push('Du får faktura og betaler selv innen forfallsdato.');
  return lines;
}

/** Issue 21: whether the bank has confirmed the AvtaleGiro, and the KID the payer confirms it with. */
function AvtaleGiroStatus({ agreement }: { agreement: NonNullable<PaymentMethodDetails['avtaleGiro']> }) {
  const pending = agreement.status === 'PENDING';
  return (
    <>
      <p className={styles.status}>
        <Badge tone={pending ? 'warning' : 'positive'}>{pending ? 'Venter på bekreftelse fra banken' : 'AvtaleGiro er bekreftet av banken'}</Badge>
      </p>
      <p className={ui.muted}>
        KID for avtalen: <span className={styles.kid}>{agreement.kid}</span>
      </p>
      <p className={ui.muted}>{pending ? 'Til banken har bekreftet avtalen, får du fakturaene som vanlig giro.' : 'Fakturaene trekkes automatisk fra kontoen din på forfallsdatoen.'}</p>
    </>
  );
}

export function CurrentMethod({ details, children }: { details: PaymentMethodDetails; children?: ReactNode }) {
  return (
    <section className={styles.current} aria-labelledby="navaerende-metode">
      <h2 id="navaerende-metode" className={styles.eyebrow}>
        Nåværende betalingsmetode
      </h2>
      <p className={styles.method}>{details.label}</p>
      {details.avtaleGiro ? <AvtaleGiroStatus agreement={details.avtaleGiro} /> : null}
      {detailLines(details).map((line) => (
        <p key={line} className={ui.muted}>
          {line}
        </p>
      ))}
      {children ? <div className={ui.actions}>{children}</div> : null}
    </section>
  );
}
