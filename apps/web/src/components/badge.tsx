import type { ReactNode } from 'react';
import styles from './badge.module.css';

export type BadgeTone = 'positive' | 'warning' | 'negative' | 'info' | 'neutral';

/** A status as a small coloured label (subscription state, invoice status). */
export function Badge({ tone, children }: { tone: BadgeTone; children: ReactNode }) {
  return <span className={`${styles.badge} ${styles[tone]}`}>{children}</span>;
}
