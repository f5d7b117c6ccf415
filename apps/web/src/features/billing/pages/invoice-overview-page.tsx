import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
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
import { formatKroner, formatShortDate } from '../format.ts';
import styles from './invoice-overview-page.module.css';

/** SPEC §2 /fakturaoversikt: every invoice, newest first, with what to pay where, a PDF each, and "Betal" for the unpaid ones. */
export function InvoiceOverviewPage() {
  const subscription = useSessionSubscription();
  const ariaAccountNo = subscription?.ariaAccountNo ?? 0;
  const query = useInfiniteQuery({ ...invoicesQueryOptions(ariaAccountNo), enabled: subscription !== null });
  const invoices = query.data?.pages.flatMap((page) => page.invoices) ?? [];
  const open = invoices.filter((invoice) => invoice.status !== 'PAID');
  const payable = open.filter((invoice) => invoice.payable);
  const openTotal = open.reduce((sum, invoice) => sum + invoice.openOre, 0);
  const firstDue = open.map((invoice) => invoice.dueOn).sort()[0];
  // Every open invoice is on its way from the bank: nothing for the subscriber to pay here.
  const allDrawnByBank = open.length > 0 && open.every((invoice) => invoice.avtaleGiroDrawOn !== null && !invoice.payable);

  return (
    <Page title={pages.invoiceOverview.title} lead={pages.invoiceOverview.purpose}>
      {query.data ? (
        open.length > 0 ? (
          <section className={styles.summary} aria-labelledby="a-betale">
            <h2 id="a-betale" className={ui.panelHeading}>
              {open.length === 1 ? 'Du har 1 faktura som ikke er betalt' : `Du har ${open.length} fakturaer som ikke er betalt`}
            </h2>
            <p className={ui.text}>
              Til sammen <strong>{formatKroner(openTotal)}</strong>
              {firstDue ? `, første forfallsdato ${formatShortDate(firstDue)}` : ''}.{' '}
              {allDrawnByBank
                ? 'Banken trekker det med AvtaleGiro på forfallsdatoen, så du trenger ikke gjøre noe.'
                : 'Du kan betale med Vipps eller kort her, eller i nettbanken med KID og kontonummer.'}
            </p>
            {payable.length === 1 && payable[0] ? (
              <div className={ui.actions}>
                <Link className={`${button.button} ${button.primary}`} to={pathTo('payInvoice', { ariaInvoiceNo: String(payable[0].ariaInvoiceNo) })}>
                  Betal {formatKroner(payable[0].openOre)} nå
                </Link>
              </div>
            ) : null}
          </section>
        ) : invoices.length > 0 ? (
          <p className={`${ui.success} ${ui.narrow}`} role="status">
            Alle fakturaene dine er betalt.
          </p>
        ) : null
      ) : null}

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
        {invoices.length > 0 ? <InvoiceList invoices={invoices} /> : null}
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
