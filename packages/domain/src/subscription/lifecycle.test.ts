import { describe, expect, it } from 'vitest';
import { allowedTransitions, decideTransition, effectiveStatusCode, lifecycleEvents, sharedStatusOn, type LifecycleEvent, type LifecycleSubscription } from './lifecycle.ts';
import { instStatusCodes as S } from './subscription.ts';

const today = '2026-03-10';
const sub = (instStatusCode: number, extra: Partial<LifecycleSubscription> = {}): LifecycleSubscription => ({
  instStatusCode,
  currentPeriodEnd: '2026-03-20',
  resumeStatusCode: null,
  sharedFrom: null,
  subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: null },
  ...extra,
});

describe('allowed transitions (docs/decisions/006)', () => {
  it.each([
    ['cancel', S.ACTIVE, S.PENDING_CANCELLATION],
    ['cancel', S.TRIAL, S.PENDING_CANCELLATION],
    ['undoCancellation', S.PENDING_CANCELLATION, S.ACTIVE],
    ['reactivate', S.CANCELLED, S.ACTIVE],
    ['reactivate', S.TERMINATED, S.ACTIVE],
    ['reactivate', S.INACTIVE, S.ACTIVE],
    ['changePlan', S.ACTIVE, S.ACTIVE],
    ['changePlan', S.TRIAL, S.TRIAL],
    ['changePlan', S.PENDING_CANCELLATION, S.ACTIVE],
    ['acceptRetentionOffer', S.ACTIVE, S.ACTIVE],
    ['withdraw', S.ACTIVE, S.CANCELLED],
    ['withdraw', S.TRIAL, S.CANCELLED],
    ['withdraw', S.PENDING_CANCELLATION, S.CANCELLED],
  ] as [LifecycleEvent, number, number][])('%s from %i → %i', (event, from, to) => {
    expect(decideTransition(sub(from), event, today)).toEqual({ allowed: true, to });
  });

  it('undo goes back to the trial a cancelled trial was', () => {
    expect(decideTransition(sub(S.PENDING_CANCELLATION, { resumeStatusCode: S.TRIAL }), 'undoCancellation', today)).toEqual({ allowed: true, to: S.TRIAL });
  });

  it('expire: a cancelled subscription past its period end is cancelled for good', () => {
    expect(decideTransition(sub(S.PENDING_CANCELLATION, { currentPeriodEnd: '2026-03-09' }), 'expire', today)).toEqual({ allowed: true, to: S.CANCELLED });
    expect(decideTransition(sub(S.PENDING_TERMINATION, { currentPeriodEnd: '2026-03-09' }), 'expire', today)).toEqual({ allowed: true, to: S.TERMINATED });
    // The stored period end is the renewal day (paid-period.ts): on it the period is over.
    expect(decideTransition(sub(S.PENDING_CANCELLATION, { currentPeriodEnd: today }), 'expire', today)).toEqual({ allowed: true, to: S.CANCELLED });
    expect(decideTransition(sub(S.PENDING_CANCELLATION, { currentPeriodEnd: '2026-03-11' }), 'expire', today).allowed).toBe(false);
  });

  it('every pair missing from the table is refused with 409-style data and a Norwegian message', () => {
    const allowed = new Set(allowedTransitions().map((entry) => `${entry.event}:${entry.from}`));
    let refused = 0;
    for (const event of lifecycleEvents.filter((candidate) => candidate !== 'expire')) {
      for (const from of Object.values(S)) {
        if (allowed.has(`${event}:${from}`)) continue;
        const decision = decideTransition(sub(from), event, today);
        expect(decision.allowed, `${event} from ${from}`).toBe(false);
        if (!decision.allowed) {
          const periodOver = event === 'undoCancellation' && (from === S.CANCELLED || from === S.TERMINATED);
          expect(decision.code).toBe(periodOver ? 'PERIOD_OVER' : 'TRANSITION_NOT_ALLOWED');
          expect(decision.message).toMatch(/[æøå]|abonnement/i);
        }
        refused += 1;
      }
    }
    expect(refused).toBeGreaterThan(40);
  });

  it.each([
    ['cancel', S.PENDING_CANCELLATION, 'Abonnementet er allerede sagt opp.'],
    ['cancel', S.CANCELLED, 'Abonnementet er allerede avsluttet.'],
    ['undoCancellation', S.ACTIVE, 'Abonnementet er ikke sagt opp, så det er ingen oppsigelse å angre.'],
    ['reactivate', S.ACTIVE, 'Abonnementet er ikke avsluttet, så det er ingenting å starte på nytt.'],
    ['changePlan', S.CANCELLED, 'Et avsluttet abonnement kan ikke endres. Start det på nytt først.'],
    ['withdraw', S.CANCELLED, 'Abonnementet er allerede avsluttet.'],
  ] as [LifecycleEvent, number, string][])('%s from %i says "%s"', (event, from, message) => {
    expect(decideTransition(sub(from), event, today)).toMatchObject({ allowed: false, message });
  });

  it('undo is refused once the period has run out, with its own code', () => {
    const over = sub(S.PENDING_CANCELLATION, { currentPeriodEnd: '2026-03-09' });
    expect(decideTransition(over, 'undoCancellation', today)).toMatchObject({ allowed: false, code: 'PERIOD_OVER' });
    // ... and then it can be reactivated instead.
    expect(decideTransition(over, 'reactivate', today)).toEqual({ allowed: true, to: S.ACTIVE });
  });

  it('undo is allowed on the last day of the period (the day before the renewal day), not on the renewal day', () => {
    expect(decideTransition(sub(S.PENDING_CANCELLATION, { currentPeriodEnd: '2026-03-11' }), 'undoCancellation', today).allowed).toBe(true);
    expect(decideTransition(sub(S.PENDING_CANCELLATION, { currentPeriodEnd: today }), 'undoCancellation', today)).toMatchObject({ allowed: false, code: 'PERIOD_OVER' });
  });

  it('shared access (family member, employee) can change nothing itself', () => {
    for (const event of ['cancel', 'changePlan', 'reactivate', 'undoCancellation'] as const) {
      expect(decideTransition(sub(S.ACTIVE_NON_BILLABLE, { sharedFrom: { ownerName: 'Per Olsen' } }), event, today)).toMatchObject({ allowed: false, code: 'SHARED_ACCESS' });
    }
  });

  it('a business subscription is cancelled and changed through the customer centre', () => {
    const admin = sub(S.ACTIVE, { subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: 'admin' } });
    expect(decideTransition(admin, 'cancel', today)).toMatchObject({ allowed: false, code: 'BUSINESS_CONTRACT' });
    expect(decideTransition(admin, 'changePlan', today)).toMatchObject({ allowed: false, code: 'BUSINESS_CONTRACT' });
  });
});

describe('effective status', () => {
  it('a cancelled period that is over counts as cancelled for good', () => {
    expect(effectiveStatusCode({ instStatusCode: S.PENDING_CANCELLATION, currentPeriodEnd: '2026-03-09' }, today)).toBe(S.CANCELLED);
    expect(effectiveStatusCode({ instStatusCode: S.PENDING_CANCELLATION, currentPeriodEnd: today }, today)).toBe(S.CANCELLED);
    expect(effectiveStatusCode({ instStatusCode: S.PENDING_CANCELLATION, currentPeriodEnd: '2026-03-11' }, today)).toBe(S.PENDING_CANCELLATION);
    expect(effectiveStatusCode({ instStatusCode: S.ACTIVE, currentPeriodEnd: '2026-03-09' }, today)).toBe(S.ACTIVE);
  });
});

describe('sharedStatusOn', () => {
  const today = '2026-03-10';
  const member = { instStatusCode: S.ACTIVE_NON_BILLABLE, currentPeriodEnd: '2026-01-01' };
  it('follows a running owner to the owner’s period end, also while the owner is cancelled', () => {
    expect(sharedStatusOn(member, { instStatusCode: S.ACTIVE, currentPeriodEnd: '2026-04-01' }, today)).toEqual({ instStatusCode: S.ACTIVE_NON_BILLABLE, currentPeriodEnd: '2026-04-01' });
    expect(sharedStatusOn(member, { instStatusCode: S.PENDING_CANCELLATION, currentPeriodEnd: '2026-03-11' }, today)).toEqual({
      instStatusCode: S.ACTIVE_NON_BILLABLE,
      currentPeriodEnd: '2026-03-11',
    });
  });
  it('ends when the owner has no access, or is gone', () => {
    expect(sharedStatusOn(member, { instStatusCode: S.PENDING_CANCELLATION, currentPeriodEnd: '2026-03-09' }, today)).toEqual({ instStatusCode: S.TERMINATED, currentPeriodEnd: '2026-03-09' });
    expect(sharedStatusOn(member, { instStatusCode: S.TERMINATED, currentPeriodEnd: '2026-12-01' }, today)).toEqual({ instStatusCode: S.TERMINATED, currentPeriodEnd: today });
    expect(sharedStatusOn(member, null, today)).toEqual({ instStatusCode: S.TERMINATED, currentPeriodEnd: today });
  });
  it('leaves a share that has ended by itself as it is', () => {
    const removed = { instStatusCode: S.CANCELLED, currentPeriodEnd: '2026-02-01' };
    expect(sharedStatusOn(removed, { instStatusCode: S.ACTIVE, currentPeriodEnd: '2026-04-01' }, today)).toEqual(removed);
  });
});
