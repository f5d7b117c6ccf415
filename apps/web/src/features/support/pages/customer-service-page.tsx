import { pages } from '../../../app/paths.ts';
import { Page } from '../../../components/page.tsx';
import { useTitle } from '../../titles/index.ts';
import { FaqList } from '../components/faq-list.tsx';
import { customerServiceFaq } from '../faq.ts';
import { telHref } from '../../../lib/format.ts';
import styles from './customer-service-page.module.css';

/** Opening hours of the customer centre (shared by all titles). */
const openingHours = 'Mandag–fredag kl. 08.00–16.00';

/** SPEC §2 /kundeservice: public FAQ and the title's contact details. */
export function CustomerServicePage() {
  const title = useTitle();
  const topics = customerServiceFaq(title.identityProviderName);

  return (
    <Page
      title={pages.customerService.title}
      lead={`Her finner du svar på det de fleste lurer på om abonnementet på ${title.name}. Mye kan du ordne selv, og ellers hjelper vi deg gjerne.`}
    >
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
          {title.contactIsPlaceholder ? (
            <p className={styles.note}>Telefonnummer og e-postadresse er foreløpige og ikke bekreftet av {title.name}.</p>
          ) : null}
        </section>

        <section className={styles.faq} aria-labelledby="vanlige-sporsmal">
          <h2 id="vanlige-sporsmal" className={styles.sectionHeading}>
            Vanlige spørsmål
          </h2>
          <FaqList topics={topics} />
        </section>
      </div>
    </Page>
  );
}
