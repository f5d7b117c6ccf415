import type { UserFacingState } from '@minside/domain';
import { Badge, type BadgeTone } from '../../../components/badge.tsx';
import { stateLabels } from '../labels.ts';

const tone: Record<UserFacingState, BadgeTone> = { active: 'positive', cancelled: 'warning', pendingChange: 'info', expired: 'neutral', pending: 'info' };

/** The user-facing state (SPEC §4) as a small coloured label. */
export function StateBadge({ state, trial = false }: { state: UserFacingState; trial?: boolean }) {
  const label = trial && state === 'active' ? 'Prøveperiode' : stateLabels[state];
  return <Badge tone={tone[state]}>{label}</Badge>;
}
