import { Link } from 'react-router';
import { pages, pathTo } from '../../../app/paths.ts';
import { Page } from '../../../components/page.tsx';
import button from '../../../components/button.module.css';
import { useSessionUser } from '../../auth/index.ts';
import { useTitle } from '../../titles/index.ts';
import ui from '../../../components/ui.module.css';
import styles from './home-page.module.css';

/** SPEC §2 /ingen-abonnement: signed in, but no subscription on this title. */
export function NoSubscriptionPage() {
  const title = useTitle();
  const user = useSessionUser();
  return (
    <Page title={pages.noSubscription.title} lead={`Hei${user?.givenName ? `, ${user.givenName}` : ''}! Du er logget inn, men har ikke noe abonnement på ${title.name} ennå.`}>
      <section className={`${ui.panelAccent} ${ui.narrow}`} aria-labelledby="kom-i-gang">
        <h2 id="kom-i-gang" className={ui.panelHeading}>
          Bli abonnent
        </h2>
        <p className={ui.text}>Les alle sakene på nett og i appen, og eAvisen hver dag. Den første måneden koster bare 1 kr.</p>
        <div className={ui.actions}>
          <Link className={`${button.button} ${button.primary}`} to={pathTo('orderSubscription')}>
            Se tilbud og bestill
          </Link>
        </div>
      </section>
      <section className={styles.shortcuts} aria-labelledby="andre-muligheter">
        <h2 id="andre-muligheter" className={ui.sectionHeading}>
          Har du allerede et abonnement?
        </h2>
        <ul className={styles.grid}>
          <li>
            <Link className={styles.shortcut} to={pathTo('connectSubscription')}>
              <span className={styles.shortcutLabel}>Koble til abonnement</span>
              <span className={styles.shortcutText}>Abonnementet står på en annen e-postadresse eller et kundenummer.</span>
            </Link>
          </li>
          <li>
            <Link className={styles.shortcut} to={pathTo('student')}>
              <span className={styles.shortcutLabel}>Student</span>
              <span className={styles.shortcutText}>Studentpris med studentens e-postadresse.</span>
            </Link>
          </li>
          <li>
            <Link className={styles.shortcut} to={pathTo('business')}>
              <span className={styles.shortcutLabel}>Bedriftsabonnement</span>
              <span className={styles.shortcutText}>Tilgang gjennom arbeidsgiveren din.</span>
            </Link>
          </li>
          <li>
            <Link className={styles.shortcut} to={pathTo('customerService')}>
              <span className={styles.shortcutLabel}>Kundeservice</span>
              <span className={styles.shortcutText}>Vi hjelper deg å finne abonnementet ditt.</span>
            </Link>
          </li>
        </ul>
      </section>
    </Page>
  );
}
