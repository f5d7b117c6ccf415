import { periodIsOver } from './paid-period.ts';
import { hasAccess, instStatusCodes, isBusinessSubscription, type InstStatusCode } from './subscription-rules.ts';

/**
 * The allowed transitions between the SPEC §4 status codes (docs/decisions/006-subscription-transitions.md).
 * SPEC §4 lists the codes but not the transitions; this table is the one place they are
 * decided. The server refuses any other with 409 and the Norwegian message given here.
 */

/** What can happen to a subscription. All but `expire` (the system's) are self-service. */
export const lifecycleEvents = ['cancel', 'undoCancellation', 'reactivate', 'changePlan', 'acceptRetentionOffer', 'withdraw', 'expire'] as const;
export type LifecycleEvent = (typeof lifecycleEvents)[number];

const S = instStatusCodes;

/** Every allowed (event, from) pair and the status it leads to. Anything missing is refused. */
const transitions: Record<LifecycleEvent, Partial<Record<number, InstStatusCode | 'resume' | 'same'>>> = {
  // Cancelled subscriptions run to the end of the paid period (PENDING_CANCELLATION).
  cancel: { [S.ACTIVE]: S.PENDING_CANCELLATION, [S.TRIAL]: S.PENDING_CANCELLATION },
  // Undo goes back to what it was before the cancellation (ACTIVE or TRIAL), while the period runs.
  undoCancellation: { [S.PENDING_CANCELLATION]: 'resume' },
  // An expired subscription starts again with a new period.
  reactivate: { [S.CANCELLED]: S.ACTIVE, [S.TERMINATED]: S.ACTIVE, [S.INACTIVE]: S.ACTIVE },
  // A plan change on a cancelled-but-running subscription is the "restart": it withdraws the cancellation.
  changePlan: { [S.ACTIVE]: S.ACTIVE, [S.TRIAL]: 'same', [S.PENDING_CANCELLATION]: 'resume' },
  acceptRetentionOffer: { [S.ACTIVE]: S.ACTIVE },
  // The right of withdrawal (angrerett, ADR 030) ends the agreement at once, cancelled or not;
  // whether the 14 days are still open is withdrawal.ts's question, asked by the server.
  withdraw: { [S.ACTIVE]: S.CANCELLED, [S.TRIAL]: S.CANCELLED, [S.PENDING_CANCELLATION]: S.CANCELLED },
  expire: { [S.PENDING_CANCELLATION]: S.CANCELLED, [S.PENDING_TERMINATION]: S.TERMINATED },
};

const lifecycleErrorCodes = {
  notAllowed: 'TRANSITION_NOT_ALLOWED',
  sharedAccess: 'SHARED_ACCESS',
  businessContract: 'BUSINESS_CONTRACT',
  periodOver: 'PERIOD_OVER',
} as const;

const lifecycleMessages = {
  alreadyCancelled: 'Abonnementet er allerede sagt opp.',
  alreadyEnded: 'Abonnementet er allerede avsluttet.',
  notCancelled: 'Abonnementet er ikke sagt opp, så det er ingen oppsigelse å angre.',
  periodOver: 'Abonnementet har allerede løpt ut, så oppsigelsen kan ikke angres. Du kan starte det på nytt i stedet.',
  notExpired: 'Abonnementet er ikke avsluttet, så det er ingenting å starte på nytt.',
  endedCannotChange: 'Et avsluttet abonnement kan ikke endres. Start det på nytt først.',
  offerNotAvailable: 'Tilbudet gjelder bare for aktive abonnementer.',
  notSelfService: 'Abonnementet er i en tilstand der dette ikke kan gjøres på Min Side. Kontakt kundeservice, så hjelper vi deg.',
  sharedAccess: 'Du har tilgang gjennom et abonnement som er delt med deg. Det er den som eier abonnementet som kan endre eller si det opp.',
  businessContract: 'Bedriftsabonnement endres og sies opp gjennom kundeservice.',
} as const;

/** What the transition rules read about a subscription. */
export interface LifecycleSubscription {
  instStatusCode: number;
  /** The renewal day: the first day after the paid period (ISO date; see paid-period.ts). */
  currentPeriodEnd: string;
  /** The status an undone cancellation goes back to (ACTIVE or TRIAL); null when not cancelled. */
  resumeStatusCode?: number | null;
  sharedFrom: unknown;
  subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: string | null };
}

export type TransitionDecision = { allowed: true; to: InstStatusCode } | { allowed: false; code: (typeof lifecycleErrorCodes)[keyof typeof lifecycleErrorCodes]; message: string };

function refusal(event: LifecycleEvent, from: number): TransitionDecision {
  const ended = from === S.CANCELLED || from === S.TERMINATED || from === S.INACTIVE;
  const message = (() => {
    switch (event) {
      case 'cancel':
        if (from === S.PENDING_CANCELLATION || from === S.PENDING_TERMINATION) return lifecycleMessages.alreadyCancelled;
        return ended ? lifecycleMessages.alreadyEnded : lifecycleMessages.notSelfService;
      case 'undoCancellation':
        return ended ? lifecycleMessages.periodOver : lifecycleMessages.notCancelled;
      case 'reactivate':
        return lifecycleMessages.notExpired;
      case 'changePlan':
        return ended ? lifecycleMessages.endedCannotChange : lifecycleMessages.notSelfService;
      case 'acceptRetentionOffer':
        return lifecycleMessages.offerNotAvailable;
      case 'withdraw':
        return ended ? lifecycleMessages.alreadyEnded : lifecycleMessages.notSelfService;
      case 'expire':
        return lifecycleMessages.notSelfService;
    }
  })();
  return { allowed: false, code: lifecycleErrorCodes.notAllowed, message };
}

/**
 * The status a subscription has on `today`: a cancelled subscription whose paid period is
 * over has expired, even before the expiry job has written it down.
 */
export function effectiveStatusCode(subscription: Pick<LifecycleSubscription, 'instStatusCode' | 'currentPeriodEnd'>, today: string): number {
  const code = subscription.instStatusCode;
  if (periodIsOver(subscription.currentPeriodEnd, today)) {
    if (code === S.PENDING_CANCELLATION) return S.CANCELLED;
    if (code === S.PENDING_TERMINATION) return S.TERMINATED;
  }
  return code;
}

interface PeriodStatus {
  instStatusCode: number;
  currentPeriodEnd: string;
}

/**
 * A shared row (family member, business employee) gives access only while the owner's
 * subscription does: it runs to the owner's period end (a cancelled-but-running owner's
 * members keep access through it), and once the owner has no access, or the owner's
 * subscription is gone, the share counts as TERMINATED from the owner's last day. A share
 * that has ended by itself (removed, left) stays as it is.
 */
export function sharedStatusOn(member: PeriodStatus, owner: PeriodStatus | null, today: string): PeriodStatus {
  if (!hasAccess({ instStatusCode: effectiveStatusCode(member, today) })) return { instStatusCode: member.instStatusCode, currentPeriodEnd: member.currentPeriodEnd };
  if (owner && hasAccess({ instStatusCode: effectiveStatusCode(owner, today) })) return { instStatusCode: member.instStatusCode, currentPeriodEnd: owner.currentPeriodEnd };
  const end = owner && periodIsOver(owner.currentPeriodEnd, today) ? owner.currentPeriodEnd : today;
  return { instStatusCode: S.TERMINATED, currentPeriodEnd: end };
}

/** Whether `event` may happen to the subscription on `today`, and the status it leads to. */
export function decideTransition(subscription: LifecycleSubscription, event: LifecycleEvent, today: string): TransitionDecision {
  if (event !== 'expire') {
    // Members and employees hold access the owner pays for: only the owner changes it.
    if (subscription.sharedFrom) return { allowed: false, code: lifecycleErrorCodes.sharedAccess, message: lifecycleMessages.sharedAccess };
    if (event !== 'reactivate' && isBusinessSubscription(subscription)) {
      return { allowed: false, code: lifecycleErrorCodes.businessContract, message: lifecycleMessages.businessContract };
    }
  }
  const from = event === 'expire' ? subscription.instStatusCode : effectiveStatusCode(subscription, today);
  const target = transitions[event][from];
  if (target === undefined) {
    const decision = refusal(event, from);
    const periodOver = event === 'undoCancellation' && (from === S.CANCELLED || from === S.TERMINATED);
    return periodOver && !decision.allowed ? { ...decision, code: lifecycleErrorCodes.periodOver } : decision;
  }
  if (event === 'expire' && !periodIsOver(subscription.currentPeriodEnd, today)) return refusal(event, from);
  if (target === 'same') return { allowed: true, to: from as InstStatusCode };
  if (target === 'resume') {
    const resume = subscription.resumeStatusCode === S.TRIAL ? S.TRIAL : S.ACTIVE;
    return { allowed: true, to: resume };
  }
  return { allowed: true, to: target };
}

/** The allowed transitions as data: for the ADR's table and the tests. */
export function allowedTransitions(): { event: LifecycleEvent; from: number; to: InstStatusCode | 'resume' | 'same' }[] {
  return lifecycleEvents.flatMap((event) => Object.entries(transitions[event]).map(([from, to]) => ({ event, from: Number(from), to: to as InstStatusCode | 'resume' | 'same' })));
}
