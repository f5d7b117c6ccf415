import { pages } from '../../../app/paths.ts';
import { Page } from '../../../components/page.tsx';
import { useMaintenanceTitle } from '../api/get-maintenance-title.ts';
import styles from './maintenance-page.module.css';

const fallbackMessage = 'Vi jobber med Min Side akkurat nå. Prøv igjen om litt.';

/** SPEC §2 /maintenance: shown for every route while the title is in maintenance. */
export function MaintenancePage() {
  const maintenance = useMaintenanceTitle();
  return (
    <Page title={pages.maintenance.title}>
      <div className={styles.card}>
        <p className={styles.message}>{maintenance?.message || fallbackMessage}</p>
        <p className={styles.hint}>Abonnementet ditt og avisen påvirkes ikke. Du trenger ikke gjøre noe.</p>
      </div>
    </Page>
  );
}
