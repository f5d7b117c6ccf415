import type { ReactNode } from 'react';
import styles from './page.module.css';

export interface PageProps {
  /** The page's h1. The shell moves focus here after each navigation. */
  title: string;
  lead?: ReactNode;
  children?: ReactNode;
}

/** The frame of every page: one h1 (focusable for route-change focus), an optional lead, content. */
export function Page({ title, lead, children }: PageProps) {
  return (
    <div className={styles.page}>
      <div className={styles.intro}>
        <h1 className={styles.title} tabIndex={-1}>
          {title}
        </h1>
        {lead ? <p className={styles.lead}>{lead}</p> : null}
      </div>
      {children}
    </div>
  );
}
