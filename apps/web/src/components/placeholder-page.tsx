import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { pathTo, type PageRoute } from '../app/paths.ts';
import { Page } from './page.tsx';
import button from './button.module.css';
import styles from './placeholder-page.module.css';

export interface PlaceholderPageProps {
  /** The page's entry in the route table: its Norwegian title and purpose. */
  page: Pick<PageRoute, 'title' | 'purpose'>;
  children?: ReactNode;
}

/** A titled page whose content is still being built: title, purpose and a way to get help now. */
export function PlaceholderPage({ page, children }: PlaceholderPageProps) {
  return (
    <Page title={page.title} lead={page.purpose}>
      {children}
      <section className={styles.notice} aria-labelledby="placeholder-help">
        <h2 id="placeholder-help" className={styles.heading}>
          Denne siden er under arbeid
        </h2>
        <p className={styles.text}>Snart kan du ordne dette selv her. Trenger du hjelp nå, står kundeservice klar.</p>
        <div className={styles.actions}>
          <Link className={`${button.button} ${button.primary}`} to={pathTo('customerService')}>
            Kontakt kundeservice
          </Link>
          <Link className={`${button.button} ${button.secondary}`} to={pathTo('home')}>
            Til Min Side
          </Link>
        </div>
      </section>
    </Page>
  );
}
