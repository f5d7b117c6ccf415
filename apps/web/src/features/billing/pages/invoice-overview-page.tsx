import { useInfiniteQuery } from '../../../lib/query/index.ts';
import { compareIsoDates, invoiceCollectionLabel, invoiceGroupHeadings, invoiceGroupOf, invoiceGroups, offersPayNow, type Invoice } from '@minside/domain';
import { Link } from '../../../lib/router/index.ts';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { isApiError } from '../../../lib/http.ts';
import { useSessionSubscription } from '../../auth/index.ts';
import { invoicesQueryOptions } from '../api/get-invoices.ts';
import { CreditNoteList } from '../components/credit-note-list.tsx';
import { DiscountPanel } from '../components/discount-panel.tsx';
import { InvoiceList } from '../components/invoice-list.tsx';
import { formatKroner, formatLongDate } from '../format.ts';
import styles from './invoice-overview-page.module.css';

/** Oldest first: the one that is due first. */
const byDueDate = (a: Invoice, b: Invoice) => compareIsoDates(a.dueOn, b.dueOn);

/**
 * What needs the subscriber, at the top (issue 25.6): overdue invoices (a failed AvtaleGiro draw
 * among them) as an alarm with "Betal nå"; otherwise the next coming invoice, calmly — drawn by the
 * bank ("Du trenger ikke gjøre noe") or to pay by its due date; otherwise that all is paid.
 */
function InvoiceSummary({ invoices }: { invoices: Invoice[] }) {
  const overdue = invoices.filter((invoice) => invoiceGroupOf[invoice.collection] === 'OVERDUE').sort(byDueDate);
  const upcoming = invoices.filter((invoice) => invoiceGroupOf[invoice.collection] === 'UPCOMING').sort(byDueDate);
  if (overdue.length > 0) {
    const payNow = overdue.filter(offersPayNow);
    const total = overdue.reduce((sum, invoice) => sum + invoice.openOre, 0);
    const failedDraw = overdue.some((invoice) => invoice.collection === 'AVTALEGIRO_FAILED');
    return (
      <section className={`${styles.summary} ${styles.summaryAlert}`} aria-labelledby="a-betale">
        <h2 id="a-betale" className={ui.panelHeading}>
          {overdue.length === 1 ? 'Du har 1 faktura som har forfalt' : `Du har ${overdue.length} fakturaer som har forfalt`}
        </h2>
        <p className={ui.text}>
          Til sammen <strong>{formatKroner(total)}</strong>. {failedDraw ? 'Banken fikk ikke trukket beløpet med AvtaleGiro, så du må betale selv. ' : ''}
          Du kan betale med Vipps eller kort her, eller i nettbanken med KID og kontonummer.
        </p>
        {payNow.length === 1 && payNow[0] ? (
          <div className={ui.actions}>
            <Link className={`${button.button} ${button.primary}`} to={pathTo('payInvoice', { ariaInvoiceNo: String(payNow[0].ariaInvoiceNo) })}>
              Betal {formatKroner(payNow[0].openOre)} nå
            </Link>
          </div>
        ) : null}
      </section>
    );
  }
  const next = upcoming[0];
  if (next) {
    const drawnByBank = next.collection === 'AVTALEGIRO_SCHEDULED' || next.collection === 'AVTALEGIRO_AWAITING_BANK';
    return (
      <section className={styles.summary} aria-labelledby="neste-faktura">
        <h2 id="neste-faktura" className={ui.panelHeading}>
          {invoiceCollectionLabel(next)}
        </h2>
        <p className={ui.text}>
          Neste faktura er på <strong>{formatKroner(next.openOre)}</strong> ({next.description}).{' '}
          {drawnByBank
            ? 'Banken trekker beløpet fra kontoen din med AvtaleGiro, så du trenger ikke gjøre noe. Betal ikke på annen måte, da kan du komme til å betale to ganger.'
            : `Betal innen ${formatLongDate(next.dueOn)} med Vipps eller kort her, eller i nettbanken med KID og kontonummer.`}
        </p>
      </section>
    );
  }
  return invoices.length > 0 ? (
    <p className={`${ui.success} ${ui.narrow}`} role="status">
      Alle fakturaene dine er betalt.
    </p>
  ) : null;
}

/**
 * SPEC §2 /fakturaoversikt: every invoice in three groups — Forfalt, Kommende, Betalt — each newest
 * first, with what to pay where, a PDF each, and "Betal" only where the subscriber has to pay.
 */
export function InvoiceOverviewPage() {
  const subscription = useSessionSubscription();
  const ariaAccountNo = subscription?.ariaAccountNo ?? 0;
  const query = useInfiniteQuery({ ...invoicesQueryOptions(ariaAccountNo), enabled: subscription !== null });
  const invoices = query.data?.pages.flatMap((page) => page.invoices) ?? [];
  const groups = invoiceGroups.map((group) => ({ group, invoices: invoices.filter((invoice) => invoiceGroupOf[invoice.collection] === group) })).filter((entry) => entry.invoices.length > 0);

  return (
    <Page title={pages.invoiceOverview.title} lead="Se fakturaene dine, hva som er betalt og hva som gjenstår.">
      {query.data ? <InvoiceSummary invoices={invoices} /> : null}

      <section className={styles.list} aria-labelledby="alle-fakturaer">
        <div className={styles.listHead}>
          <h2 id="alle-fakturaer" className={ui.sectionHeading}>
            Alle fakturaer
          </h2>
          <Link to={pathTo('changePaymentMethod')}>Endre betalingsmetode</Link>
        </div>
        {query.isPending ? (
          <p className={ui.muted} role="status">
            Henter fakturaene …
          </p>
        ) : null}
        {query.error && !query.data ? (
          <p className={ui.alert} role="alert">
            {isApiError(query.error) ? query.error.message : 'Vi fikk ikke hentet fakturaene akkurat nå. Prøv igjen om litt.'}
          </p>
        ) : null}
        {query.data && invoices.length === 0 ? <p className={ui.muted}>Du har ingen fakturaer ennå.</p> : null}
        {groups.map(({ group, invoices: inGroup }) => (
          <section key={group} className={styles.group} aria-labelledby={`fakturaer-${group}`}>
            <h3 id={`fakturaer-${group}`} className={styles.groupHeading}>
              {invoiceGroupHeadings[group]} <span className={styles.count}>({inGroup.length})</span>
            </h3>
            <InvoiceList invoices={inGroup} caption={`${invoiceGroupHeadings[group]}, nyeste først`} />
          </section>
        ))}
        {query.data ? (
          <div className={styles.more}>
            <p className={ui.muted} aria-live="polite">
              {invoices.length > 0 ? `Viser ${invoices.length} ${invoices.length === 1 ? 'faktura' : 'fakturaer'}${query.hasNextPage ? '' : ', alle du har'}.` : ''}
            </p>
            {query.hasNextPage ? (
              <button type="button" className={`${button.button} ${button.secondary}`} onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
                {query.isFetchingNextPage ? 'Henter flere …' : 'Vis flere fakturaer'}
              </button>
            ) : null}
            {query.isFetchNextPageError ? (
              <p className={ui.alert} role="alert">
                Vi fikk ikke hentet flere fakturaer. Prøv igjen.
              </p>
            ) : null}
          </div>
        ) : null}
      </section>

      {subscription ? <CreditNoteList ariaAccountNo={subscription.ariaAccountNo} /> : null}

      {subscription ? <DiscountPanel subscription={{ ariaAccountNo: subscription.ariaAccountNo, titleCode: subscription.titleCode }} /> : null}
    </Page>
  );
}
