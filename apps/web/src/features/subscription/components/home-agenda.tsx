import type { ReactNode } from 'react';
import { Link } from '../../../lib/router/index.ts';
import { formatKroner, formatLongDate, type AgendaItem, type DeliveryChange, type HomeAgenda, type HomeOverview, type PaymentMethod } from '@minside/domain';
import { pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import ui from '../../../components/ui.module.css';
import { addressLines, dayAndMonth } from '../../delivery/index.ts';
import { paymentMethodLabels } from '../labels.ts';
import styles from './home-agenda.module.css';

const payPath = (ariaInvoiceNo: number) => pathTo('payInvoice', { ariaInvoiceNo: String(ariaInvoiceNo) });

function Action({ to, primary = false, children }: { to: string; primary?: boolean; children: ReactNode }) {
  return (
    <Link className={`${button.button} ${primary ? button.primary : button.secondary}`} to={to}>
      {children}
    </Link>
  );
}

/** One thing that needs the subscriber: what it is, why, and the one or two ways to deal with it. */
function AttentionEntry({ item, invitationsPath }: { item: AgendaItem; invitationsPath: string }) {
  switch (item.kind) {
    case 'failedCharge':
      return (
        <li className={styles.entry}>
          <p className={styles.entryTitle}>Betalingen av faktura {item.invoice.ariaInvoiceNo} gikk ikke gjennom</p>
          <p className={ui.muted}>Vi fikk ikke trukket {formatKroner(item.invoice.openOre)}. Betal fakturaen nå, eller bytt betalingsmåte så neste betaling går av seg selv.</p>
          <div className={ui.actions}>
            {item.invoice.payable ? (
              <Action to={payPath(item.invoice.ariaInvoiceNo)} primary>
                Betal {formatKroner(item.invoice.openOre)} nå
              </Action>
            ) : null}
            <Action to={pathTo('changePaymentMethod')}>Bytt betalingsmåte</Action>
          </div>
        </li>
      );
    case 'overdueInvoice':
      return (
        <li className={styles.entry}>
          <p className={styles.entryTitle}>Faktura {item.invoice.ariaInvoiceNo} har forfalt</p>
          <p className={ui.muted}>
            {formatKroner(item.invoice.openOre)} skulle vært betalt {formatLongDate(item.invoice.dueOn)}.
          </p>
          <div className={ui.actions}>
            {item.invoice.payable ? (
              <Action to={payPath(item.invoice.ariaInvoiceNo)} primary>
                Betal {formatKroner(item.invoice.openOre)} nå
              </Action>
            ) : (
              <Action to={pathTo('invoiceOverview')}>Se fakturaen</Action>
            )}
          </div>
        </li>
      );
    case 'avtaleGiroPending':
      return (
        <li className={styles.entry}>
          <p className={styles.entryTitle}>AvtaleGiro venter på bekreftelse fra banken</p>
          <p className={ui.muted}>Godkjenn avtalen i nettbanken din. Til banken har bekreftet den, får du fakturaene som vanlig giro.</p>
          <div className={ui.actions}>
            <Action to={pathTo('changePaymentMethod')}>Se hva du skal gjøre</Action>
          </div>
        </li>
      );
    case 'pendingInvitations':
      return (
        <li className={styles.entry}>
          <p className={styles.entryTitle}>{item.count === 1 ? '1 invitasjon venter på svar' : `${item.count} invitasjoner venter på svar`}</p>
          <p className={ui.muted}>Den du har invitert, får tilgang når lenken i e-posten er åpnet. Du kan sende invitasjonen på nytt.</p>
          <div className={ui.actions}>
            <Action to={invitationsPath}>Se invitasjonene</Action>
          </div>
        </li>
      );
    default:
      return null;
  }
}

/** What needs the subscriber now (issue 25.10): shown first, and only when there is something. */
export function AttentionPanel({ agenda, invitationsPath }: { agenda: HomeAgenda; invitationsPath: string }) {
  if (agenda.attention.length === 0) return null;
  const urgent = agenda.attention.some((item) => item.kind === 'failedCharge' || item.kind === 'overdueInvoice');
  return (
    <section className={urgent ? `${styles.attention} ${styles.urgent}` : styles.attention} aria-labelledby="trenger-oppmerksomhet">
      <h2 id="trenger-oppmerksomhet" className={ui.panelHeading}>
        {urgent ? 'Dette må ordnes' : 'Verdt å vite'}
      </h2>
      <ul className={styles.entries}>
        {agenda.attention.map((item) => (
          <AttentionEntry key={'invoice' in item ? `${item.kind}-${item.invoice.ariaInvoiceNo}` : item.kind} item={item} invitationsPath={invitationsPath} />
        ))}
      </ul>
    </section>
  );
}

const chargeWords: Record<PaymentMethod, string> = {
  CARD: 'trekkes fra betalingskortet',
  VIPPS: 'trekkes med Vipps',
  AVTALEGIRO: 'trekkes automatisk med AvtaleGiro for perioden fra',
  INVOICE: 'faktureres med KID for perioden fra',
  NONE: '',
};

/** The next payment in one sentence, and whether the subscriber has anything to do about it. */
function NextPayment({ item, method }: { item: AgendaItem | null; method: PaymentMethod }) {
  if (!item) {
    return (
      <>
        <p className={styles.big}>Ingenting å betale nå</p>
        <p className={ui.muted}>Betalingsmåte: {paymentMethodLabels[method]}</p>
      </>
    );
  }
  switch (item.kind) {
    case 'scheduledDraw':
      // Issue 25.6: a draw the bank makes by itself is coming, not due; paying it too would pay twice.
      return (
        <>
          <p className={styles.big}>{formatKroner(item.invoice.avtaleGiroDrawOre ?? item.invoice.openOre)}</p>
          <p className={ui.text}>Kommende – trekkes automatisk {formatLongDate(item.on)}</p>
          <p className={ui.muted}>Med AvtaleGiro. Du trenger ikke gjøre noe.</p>
        </>
      );
    case 'invoiceDue':
      return (
        <>
          <p className={styles.big}>{formatKroner(item.invoice.openOre)}</p>
          <p className={ui.text}>
            Faktura {item.invoice.ariaInvoiceNo} forfaller {formatLongDate(item.invoice.dueOn)}
          </p>
          {item.invoice.payable ? (
            <p className={ui.muted}>
              <Link to={payPath(item.invoice.ariaInvoiceNo)}>Betal fakturaen</Link> når det passer, innen forfall.
            </p>
          ) : null}
        </>
      );
    case 'nextCharge':
      return (
        <>
          <p className={styles.big}>{formatKroner(item.amountOre)}</p>
          <p className={ui.text}>
            {chargeWords[item.method]} {formatLongDate(item.on)}
          </p>
          <p className={ui.muted}>Betalingsmåte: {paymentMethodLabels[item.method]}</p>
        </>
      );
    default:
      return null;
  }
}

function changeText(change: DeliveryChange): string {
  if (change.type === 'STOP') {
    return change.resumesOn
      ? `Avisen stoppes fra ${dayAndMonth(change.firstIssue)} og kommer igjen ${dayAndMonth(change.resumesOn)}.`
      : `Avisen stoppes fra ${dayAndMonth(change.firstIssue)}, til du gir beskjed.`;
  }
  if (change.type === 'TRANSFER') {
    const where = change.address ? ` til ${change.address.street} ${change.address.streetNumber}, ${change.address.town}` : '';
    return change.resumesOn
      ? `Avisen sendes${where} fra ${dayAndMonth(change.firstIssue)}, og hjem igjen ${dayAndMonth(change.resumesOn)}.`
      : `Avisen sendes${where} fra ${dayAndMonth(change.firstIssue)}.`;
  }
  const where = change.address ? `${change.address.street} ${change.address.streetNumber}, ${change.address.postalCode} ${change.address.town}` : 'ny adresse';
  return `Du flytter: avisen kommer til ${where} fra ${dayAndMonth(change.fromDate)}.`;
}

/** The "what's going on" cards (issue 25.10): where the paper goes and what changes next, and the next payment. */
export function StatusCards({ overview, agenda, hasAccess }: { overview: HomeOverview; agenda: HomeAgenda; hasAccess: boolean }) {
  const { delivery } = overview;
  // Without access and nothing to pay there is no next payment to tell of (an expired subscription).
  const payment = overview.payment && (hasAccess || agenda.nextPayment) ? overview.payment : null;
  if (!delivery && !payment) return null;
  return (
    <div className={styles.cards}>
      {delivery ? (
        <section className={styles.card} aria-labelledby="levering-na">
          <h2 id="levering-na" className={styles.cardHeading}>
            Levering
          </h2>
          <address className={styles.address}>
            {addressLines(delivery.address).map((line) => (
              <span key={line}>{line}</span>
            ))}
          </address>
          <p className={ui.text}>{delivery.nextChange ? changeText(delivery.nextChange) : 'Ingen ferie eller flytting er bestilt.'}</p>
          <p className={ui.muted}>
            <Link to={pathTo('deliveryChange')}>{delivery.nextChange ? 'Se eller endre' : 'Stopp avisen i ferien'}</Link>
          </p>
        </section>
      ) : null}
      {payment ? (
        <section className={styles.card} aria-labelledby="neste-betaling">
          <h2 id="neste-betaling" className={styles.cardHeading}>
            Neste betaling
          </h2>
          <NextPayment item={agenda.nextPayment} method={payment.method} />
        </section>
      ) : null}
    </div>
  );
}
