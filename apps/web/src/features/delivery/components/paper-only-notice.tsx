import { Link } from '../../../lib/router/index.ts';
import { deliveryMessages } from '@minside/domain';
import { pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import styles from './section.module.css';

/** SPEC §6: what someone without a paper subscription sees on the paper-only pages. */
export function PaperOnlyNotice() {
  return (
    <section className={styles.info} aria-label="Kun for papirabonnenter">
      <p className={styles.infoText} role="alert">
        {deliveryMessages.paperOnly}
      </p>
      <div>
        <Link className={`${button.button} ${button.secondary}`} to={pathTo('customerService')}>
          Kontakt kundeservice
        </Link>
      </div>
    </section>
  );
}
