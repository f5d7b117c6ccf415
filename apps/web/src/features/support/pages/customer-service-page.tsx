import { useId, useMemo, useState } from 'react';
import { useQuery } from '../../../lib/query/index.ts';
import { pages } from '../../../app/paths.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Page } from '../../../components/page.tsx';
import form from '../../../components/form.module.css';
import ui from '../../../components/ui.module.css';
import { contentQueryOptions } from '../../privacy/index.ts';
import { useTitle } from '../../titles/index.ts';
import { FaqList } from '../components/faq-list.tsx';
import { faqFromDocument, searchFaq } from '../faq.ts';
import { telHref } from '../../../lib/format.ts';
import styles from './customer-service-page.module.css';

/** Opening hours of the customer centre (shared by all titles). */
const openingHours = 'Mandag–fredag kl. 08.00–16.00';

/**
 * SPEC §2 /kundeservice: public FAQ and the title's contact details, as the catalogue has them.
 * Whether the catalogue's details are the publisher's own is the operators' concern
 * (`contactIsPlaceholder`, `npm run admin -- contacts`), never text for subscribers (issue 25.5).
 */
export function CustomerServicePage() {
  const title = useTitle();
  const faq = useQuery(contentQueryOptions('support', 'faq', title.titleCode));
  const topics = useMemo(() => (faq.data ? faqFromDocument(faq.data) : []), [faq.data]);
  const [search, setSearch] = useState('');
  const found = useMemo(() => searchFaq(topics, search), [topics, search]);
  const hits = found.reduce((sum, topic) => sum + topic.entries.length, 0);
  const searchId = useId();

  return (
    <Page title={pages.customerService.title} lead={`Her finner du svar på det de fleste lurer på om abonnementet på ${title.name}. Mye kan du ordne selv, og ellers hjelper vi deg gjerne.`}>
      <div className={styles.layout}>
        <section className={styles.contact} aria-labelledby="kontakt-oss">
          <h2 id="kontakt-oss" className={styles.sectionHeading}>
            Kontakt oss
          </h2>
          <dl className={styles.details}>
            <div className={styles.detail}>
              <dt>Telefon</dt>
              <dd>
                <a className={styles.contactLink} href={telHref(title.customerCenterPhoneNumber)}>
                  {title.customerCenterPhoneNumber}
                </a>
              </dd>
            </div>
            <div className={styles.detail}>
              <dt>E-post</dt>
              <dd>
                <a className={styles.contactLink} href={`mailto:${title.customerCenterEmail}`}>
                  {title.customerCenterEmail}
                </a>
              </dd>
            </div>
            <div className={styles.detail}>
              <dt>Åpningstider</dt>
              <dd>{openingHours}</dd>
            </div>
          </dl>
        </section>

        <section className={styles.faq} aria-labelledby="vanlige-sporsmal">
          <h2 id="vanlige-sporsmal" className={styles.sectionHeading}>
            Vanlige spørsmål
          </h2>
          <div className={form.field} role="search">
            <label className={form.label} htmlFor={searchId}>
              Søk i spørsmål og svar
            </label>
            <input id={searchId} className={form.input} type="search" value={search} onChange={(event) => setSearch(event.target.value)} autoComplete="off" />
          </div>
          <p role="status" className={ui.muted}>
            {search.trim() && faq.data ? (hits === 0 ? `Ingen svar passer «${search.trim()}». Prøv et annet ord, eller kontakt oss.` : `${hits} svar passer «${search.trim()}».`) : ''}
          </p>
          {faq.isPending ? <p className={ui.muted}>Henter spørsmål og svar …</p> : null}
          <ErrorAlert error={faq.error} fallback="Vi fikk ikke hentet spørsmål og svar. Ring eller send oss en e-post." />
          <FaqList topics={found} open={search.trim() !== ''} />
        </section>
      </div>
    </Page>
  );
}
