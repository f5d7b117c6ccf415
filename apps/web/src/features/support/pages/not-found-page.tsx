import { Link } from '../../../lib/router/index.ts';
import { pages, pathTo } from '../../../app/paths.ts';
import { Page } from '../../../components/page.tsx';
import button from '../../../components/button.module.css';
import styles from './not-found-page.module.css';

/** SPEC §2 /404: every unknown path is redirected here. */
export function NotFoundPage() {
  return (
    <Page title={pages.notFound.title} lead="Siden du leter etter finnes ikke, eller den har fått en ny adresse.">
      <div className={styles.body}>
        <p className={styles.text}>Sjekk at adressen er skrevet riktig. Du kan også gå til Min Side eller få hjelp hos kundeservice.</p>
        <div className={styles.actions}>
          <Link className={`${button.button} ${button.primary}`} to={pathTo('home')}>
            Gå til Min Side
          </Link>
          <Link className={`${button.button} ${button.secondary}`} to={pathTo('customerService')}>
            Kundeservice
          </Link>
        </div>
      </div>
    </Page>
  );
}
