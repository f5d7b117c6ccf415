import { Link } from '../../../lib/router/index.ts';
import { invoiceDescriptionWithoutPeriod, offersPayNow, type Invoice } from '@minside/domain';
import { pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { invoicePdfUrl } from '../api/get-invoices.ts';
import { formatKroner, formatPeriod, formatShortDate, openText, paidText } from '../format.ts';
import { useMediaQuery } from '../use-media-query.ts';
import { InvoiceCollectionBadge, InvoiceCollectionDetail } from './invoice-status-badge.tsx';
import styles from './invoice-list.module.css';

/** What the invoice is for; the period has its own column (or line), so it is not said twice in two styles. */
function invoiceHeading(invoice: Invoice): string {
  return invoiceDescriptionWithoutPeriod(invoice.description, invoice.periodFrom, invoice.periodTo);
}

/** From this width the invoices are a table; below it, one card per invoice. */
const TABLE_MEDIA_QUERY = '(min-width: 56rem)';

function PdfLink({ invoice }: { invoice: Invoice }) {
  return (
    <a className={styles.pdf} href={invoicePdfUrl(invoice)} target="_blank" rel="noopener">
      PDF<span className="visually-hidden"> av faktura {invoice.ariaInvoiceNo}</span>
      <span className="visually-hidden"> (åpnes i ny fane)</span>
    </a>
  );
}

/** "Betal" only where the payer has to pay (offersPayNow): never on an invoice the bank draws with AvtaleGiro, unless its draw failed. */
function PayLink({ invoice }: { invoice: Invoice }) {
  if (!offersPayNow(invoice)) return null;
  return (
    <Link className={`${button.button} ${button.primary} ${button.small}`} to={pathTo('payInvoice', { ariaInvoiceNo: String(invoice.ariaInvoiceNo) })}>
      Betal<span className="visually-hidden"> faktura {invoice.ariaInvoiceNo}</span>
    </Link>
  );
}

/** "Betalt 3. mars 2026 i nettbank" under the Betalt badge; on an open invoice, what is under way (a draw, a part-payment). */
function PaidNote({ invoice }: { invoice: Invoice }) {
  const paid = paidText(invoice);
  // The bank's draw is said by the status line already (InvoiceCollectionDetail).
  const lines = paid ? [paid] : openText({ ...invoice, avtaleGiroDrawOn: null });
  return (
    <>
      {lines.map((line) => (
        <span key={line} className={styles.paid}>
          {line}
        </span>
      ))}
    </>
  );
}

function InvoiceTable({ invoices, caption }: { invoices: Invoice[]; caption: string }) {
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Faktura</th>
            <th scope="col">Periode</th>
            <th scope="col">Forfallsdato</th>
            <th scope="col" className={styles.number}>
              Beløp
            </th>
            <th scope="col">KID og kontonummer</th>
            <th scope="col">Status</th>
            <th scope="col">
              <span className="visually-hidden">Handlinger</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {invoices.map((invoice) => (
            <tr key={invoice.ariaInvoiceNo}>
              <th scope="row">
                <span className={styles.rowHead}>
                  <span className={styles.description}>{invoiceHeading(invoice)}</span>
                  <span className={styles.meta}>Fakturanr. {invoice.ariaInvoiceNo}</span>
                </span>
              </th>
              {/* The period may break after its dash: a row with "Betal" and "PDF" then still fits at 1280 px. */}
              <td>{formatPeriod(invoice.periodFrom, invoice.periodTo)}</td>
              <td className={styles.nowrap}>{formatShortDate(invoice.dueOn)}</td>
              <td className={`${styles.number} ${styles.amount}`}>{formatKroner(invoice.amountOre)}</td>
              <td>
                <span className={styles.code}>
                  <span className={styles.meta}>KID</span> {invoice.kid}
                </span>
                <span className={styles.code}>
                  <span className={styles.meta}>Konto</span> {invoice.bankAccountNumber}
                </span>
              </td>
              <td>
                <span className={styles.status}>
                  <InvoiceCollectionBadge invoice={invoice} />
                  <InvoiceCollectionDetail invoice={invoice} />
                  <PaidNote invoice={invoice} />
                </span>
              </td>
              <td>
                <div className={styles.rowActions}>
                  <PayLink invoice={invoice} />
                  <PdfLink invoice={invoice} />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function InvoiceCards({ invoices, caption }: { invoices: Invoice[]; caption: string }) {
  return (
    <ul className={styles.cards} aria-label={caption}>
      {invoices.map((invoice) => {
        const headingId = `faktura-${invoice.ariaInvoiceNo}`;
        return (
          <li key={invoice.ariaInvoiceNo} className={styles.cardItem}>
            <article className={`${styles.card} ${invoice.collection === 'OVERDUE' || invoice.collection === 'AVTALEGIRO_FAILED' ? styles.cardOpen : ''}`} aria-labelledby={headingId}>
              <div className={styles.cardTop}>
                <h3 id={headingId} className={styles.cardTitle}>
                  {invoiceHeading(invoice)}
                </h3>
                <InvoiceCollectionBadge invoice={invoice} />
              </div>
              <p className={styles.cardAmount}>{formatKroner(invoice.amountOre)}</p>
              <InvoiceCollectionDetail invoice={invoice} />
              <PaidNote invoice={invoice} />
              <dl className={styles.cardFacts}>
                <div>
                  <dt>Periode</dt>
                  <dd>{formatPeriod(invoice.periodFrom, invoice.periodTo)}</dd>
                </div>
                <div>
                  <dt>Forfallsdato</dt>
                  <dd>{formatShortDate(invoice.dueOn)}</dd>
                </div>
                <div>
                  <dt>KID</dt>
                  <dd className={styles.code}>{invoice.kid}</dd>
                </div>
                <div>
                  <dt>Kontonummer</dt>
                  <dd className={styles.code}>{invoice.bankAccountNumber}</dd>
                </div>
                <div>
                  <dt>Fakturanr.</dt>
                  <dd>{invoice.ariaInvoiceNo}</dd>
                </div>
              </dl>
              <div className={styles.cardActions}>
                <PayLink invoice={invoice} />
                <PdfLink invoice={invoice} />
              </div>
            </article>
          </li>
        );
      })}
    </ul>
  );
}

/** The invoices, newest first: a table on wide screens, cards on narrow ones (one of them in the page at a time). */
export function InvoiceList({ invoices, caption = 'Fakturaene dine, nyeste først' }: { invoices: Invoice[]; caption?: string }) {
  const wide = useMediaQuery(TABLE_MEDIA_QUERY);
  return wide ? <InvoiceTable invoices={invoices} caption={caption} /> : <InvoiceCards invoices={invoices} caption={caption} />;
}
