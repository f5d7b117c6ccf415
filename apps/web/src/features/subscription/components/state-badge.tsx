import type { UserFacingState } from '@minside/domain';
import { stateLabels } from '../labels.ts';
import styles from './state-badge.module.css';

/** The user-facing state (SPEC §4) as a small coloured label. */
export function StateBadge({ state, trial = false }: { state: UserFacingState; trial?: boolean }) {
  const label = trial && state === 'active' ? 'Prøveperiode' : stateLabels[state];
  return <span className={`${styles.badge} ${styles[state]}`}>{label}</span>;
}
