import { Link } from '../lib/router/index.ts';
import type { Title } from '@minside/domain';
import { pathTo } from './paths.ts';
import { ConsentManagerButton } from '../features/privacy/index.ts';
import { telHref } from '../lib/format.ts';
import styles from './footer.module.css';
import { systemClock } from '@minside/domain';

export interface FooterProps {
  title: Pick<Title, 'name' | 'pageUrl' | 'customerCenterPhoneNumber' | 'customerCenterEmail' | 'organizationNumber' | 'groupName'>;
}

/**
 * SPEC §2 footer: the title name and link, phone, e-mail, organisation number, the group
 * copyright with the current year, the terms and the privacy statement on every page (issue
 * 25.15), and the privacy settings (consent manager).
 */
export function Footer({ title }: FooterProps) {
  const year = systemClock().getFullYear();
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <div className={styles.column}>
          <a className={styles.name} href={title.pageUrl}>
            {title.name}
          </a>
          <p className={styles.muted}>Org.nr. {title.organizationNumber}</p>
        </div>

        <div className={styles.column}>
          <h2 className={styles.heading}>Kundeservice</h2>
          <ul className={styles.list}>
            <li>
              <span className={styles.label}>Telefon</span> <a href={telHref(title.customerCenterPhoneNumber)}>{title.customerCenterPhoneNumber}</a>
            </li>
            <li>
              <span className={styles.label}>E-post</span> <a href={`mailto:${title.customerCenterEmail}`}>{title.customerCenterEmail}</a>
            </li>
          </ul>
        </div>

        <div className={styles.column}>
          <h2 className={styles.heading}>Vilkår og personvern</h2>
          <ul className={styles.list}>
            <li>
              <Link to={pathTo('terms')}>Vilkår for abonnement</Link>
            </li>
            <li>
              <Link to={pathTo('businessTerms')}>Vilkår for bedrifter</Link>
            </li>
            <li>
              <Link to={pathTo('privacy')}>Personvernerklæring</Link>
            </li>
          </ul>
          <ConsentManagerButton className={styles.linkButton} />
        </div>
      </div>
      <div className={styles.bottom}>
        <p className={styles.copyright}>
          © {year} {title.groupName}
        </p>
      </div>
    </footer>
  );
}
