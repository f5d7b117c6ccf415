import { describe, expect, it } from 'vitest';
import { tasksFor, type SelfServiceSubscription } from './self-service.ts';
import { instStatusCodes as S } from './subscription.ts';

const today = '2026-03-10';
const digitalOnly = { plusContent: true, ePaper: true, paper: false, familySharing: false, thirdPartyBundle: false };
const digital: SelfServiceSubscription = {
  ariaPlanID: 'ADR-DIGITAL-M',
  planProductType: 'DIGITAL',
  eligibleForSharing: true,
  instStatusCode: S.ACTIVE,
  subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: null },
  features: digitalOnly,
  currentPeriodEnd: '2026-03-30',
  pendingChange: null,
  sharedFrom: null,
};
const paper: SelfServiceSubscription = { ...digital, ariaPlanID: 'ADR-KOMPLETT-M', planProductType: 'COMBO', features: { ...digitalOnly, paper: true, familySharing: true, thirdPartyBundle: true } };

describe('self-service tasks per subscriber', () => {
  it('digital: no paper tasks, no family sharing without the feature', () => {
    expect(tasksFor(digital, today)).toEqual(['changePlan', 'myContent', 'invoices', 'paymentMethod', 'contact', 'profile', 'privacy', 'cancel']);
  });
  it('paper: address, vacation and complaints, and family sharing', () => {
    expect(tasksFor(paper, today)).toEqual([
      'changePlan',
      'myContent',
      'deliveryAddress',
      'deliveryChange',
      'deliveryComplaint',
      'familySharing',
      'invoices',
      'paymentMethod',
      'contact',
      'profile',
      'privacy',
      'cancel',
    ]);
  });
  it('cancelled but running: undo and restart, no second cancellation', () => {
    const tasks = tasksFor({ ...digital, instStatusCode: S.PENDING_CANCELLATION }, today);
    expect(tasks).toContain('undoCancellation');
    expect(tasks).toContain('changePlan');
    expect(tasks).not.toContain('cancel');
  });
  it('expired: reactivation, and no content', () => {
    const tasks = tasksFor({ ...digital, instStatusCode: S.CANCELLED, currentPeriodEnd: '2026-01-01' }, today);
    expect(tasks).toEqual(['reactivate', 'invoices', 'contact', 'profile', 'privacy']);
  });
  it('family member: content only, nothing to pay or change', () => {
    const member = { ...digital, eligibleForSharing: false, instStatusCode: S.ACTIVE_NON_BILLABLE, sharedFrom: { ownerName: 'Per Olsen' }, features: { ...digitalOnly, familySharing: true } };
    expect(tasksFor(member, today)).toEqual(['myContent', 'contact', 'profile', 'privacy']);
  });
  it('business admin: administration and invoices; employee: content only', () => {
    const admin = { ...digital, subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: 'admin' } };
    expect(tasksFor(admin, today)).toEqual(['myContent', 'businessAdmin', 'invoices', 'contact', 'profile', 'privacy']);
    const employee = { ...digital, instStatusCode: S.ACTIVE_NON_BILLABLE, sharedFrom: { ownerName: 'Anne Bakke' }, subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: 'employee' } };
    expect(tasksFor(employee, today)).toEqual(['myContent', 'contact', 'profile', 'privacy']);
  });
  it('trial: may change plan and cancel; pays nothing yet', () => {
    const tasks = tasksFor({ ...digital, instStatusCode: S.TRIAL }, today);
    expect(tasks).toContain('cancel');
    expect(tasks).not.toContain('paymentMethod');
  });
});
