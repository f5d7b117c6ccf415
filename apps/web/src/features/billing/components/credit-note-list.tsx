import { useQuery } from '../../../lib/query/index.ts';
import ui from '../../../components/ui.module.css';
import { creditNotePdfUrl, creditNotesQueryOptions } from '../api/get-credit-notes.ts';
import { formatKroner, formatShortDate } from '../format.ts';
import styles from './credit-note-list.module.css';

/**
 * The account's credit notes (kreditnotaer, issue 23): each credits one invoice, numbered in the
 * invoices' series, with its PDF. Nothing is shown for an account that has none.
 */
export function CreditNoteList({ ariaAccountNo }: { ariaAccountNo: number }) {
  const query = useQuery(creditNotesQueryOptions(ariaAccountNo));
  const creditNotes = query.data?.creditNotes ?? [];
  if (creditNotes.length === 0) return null;
  return (
    <section className={styles.section} aria-labelledby="kreditnotaer">
      <h2 id="kreditnotaer" className={ui.sectionHeading}>
        Kreditnotaer
      </h2>
      <p className={ui.muted}>En kreditnota viser at vi har kreditert hele eller deler av en faktura, for eksempel etter en reklamasjon.</p>
      <ul className={styles.list}>
        {creditNotes.map((creditNote) => (
          <li key={creditNote.number} className={styles.item}>
            <span className={styles.what}>
              <strong>Kreditnota {creditNote.number}</strong>
              <span className={styles.meta}>
                Gjelder faktura {creditNote.ariaInvoiceNo} · {formatShortDate(creditNote.issuedOn)}
              </span>
            </span>
            <span className={styles.amount}>{formatKroner(creditNote.amountOre, { withOre: true })}</span>
            <a className={styles.pdf} href={creditNotePdfUrl(ariaAccountNo, creditNote)} target="_blank" rel="noopener">
              PDF<span className="visually-hidden"> av kreditnota {creditNote.number}</span>
              <span className="visually-hidden"> (åpnes i ny fane)</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
