import { pages, pathTo } from '../../../app/paths.ts';
import { ButtonLink, HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import { useMaintenanceTitle } from '../api/get-maintenance-title.ts';
import styles from './maintenance-page.module.css';

const fallbackMessage = 'Vi jobber med Min Side akkurat nå. Prøv igjen om litt.';

/**
 * SPEC §2 /maintenance: while the title is in maintenance every route comes here, and the page
 * says so. Reached directly while the service is up (a bookmark, an old link), it says that
 * instead and leads on (issue 25.5): it never claims an outage that is not there.
 */
export function MaintenancePage() {
  const maintenance = useMaintenanceTitle();
  if (maintenance?.maintenance) {
    return (
      <Page title={pages.maintenance.title}>
        <div className={styles.card}>
          <p className={styles.message}>{maintenance.message || fallbackMessage}</p>
          <p className={styles.hint}>Abonnementet ditt og avisen påvirkes ikke. Du trenger ikke gjøre noe.</p>
        </div>
      </Page>
    );
  }
  // The status could not be read (null): say nothing we do not know; the links will tell.
  const known = maintenance !== null && maintenance !== undefined;
  return (
    <Page title={known ? 'Min Side er oppe' : 'Driftsstatus for Min Side'}>
      <div className={styles.card}>
        <p className={styles.message}>
          {known ? 'Det pågår ikke noe vedlikehold nå. Alt på Min Side fungerer som vanlig.' : 'Vi fikk ikke sjekket driftsstatusen akkurat nå. Prøv å gå til Min Side.'}
        </p>
        <div className={styles.actions}>
          <HomeLink />
          <ButtonLink to={pathTo('customerService')}>Kundeservice</ButtonLink>
        </div>
      </div>
    </Page>
  );
}
