import { familyMessages, type FamilyOutcome, type Subscription, type Title } from '@minside/domain';
import type { subscription, subscriptionMember } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { SessionUser } from '../../plugins/session.ts';

// What the owner's side (service.ts, invitations.ts, leaving.ts) and the invitee's (joining.ts) both say of family sharing.

export type SubscriptionRow = typeof subscription.$inferSelect;
export type MemberRow = typeof subscriptionMember.$inferSelect;

export const FAMILY = 'family';
export const DAY_MS = 24 * 60 * 60 * 1000;

/** The signed-in user on one title: the title and the subscription the session shows there. */
export interface FamilyContext {
  user: SessionUser;
  title: Title;
  subscription: Subscription | null;
}

const outcomeStatus: Record<FamilyOutcome, number> = { expired: 410, withdrawn: 410, alreadyUsed: 409, activeSubscription: 409, failed: 400 };

export function outcome(code: FamilyOutcome): AppError {
  return new AppError(outcomeStatus[code], code, familyMessages.outcome[code]);
}

export function displayName(user: Pick<SessionUser, 'givenName' | 'familyName' | 'email'>): string {
  return `${user.givenName} ${user.familyName}`.trim() || user.email;
}
