// Test helpers for code that uses the identity client (guard, header, pages): our own seam,
// so those tests decide who is signed in without a server. Imported by tests only.
import type { Account, HandleCodeBody, Subscription, User } from '@minside/domain';
import type { IdentityClient } from '../identity.ts';
import type { CheckPurpose } from '../session-cache.ts';
import { sessionStore, setSignedIn, setSignedOut, type SignedInSession } from '../session.ts';
import { systemClock } from '@minside/domain';

export const kari: User = {
  sp_id: 'sp-1001',
  displayName: 'Kari Nordmann',
  givenName: 'Kari',
  familyName: 'Nordmann',
  phoneNumber: '+4791234567',
  email: 'kari@minside.test',
};

const kariAccount: Account = { ariaAccountNo: 4242, accountBalance: 0, firstTitleCode: 'ADR' };

export const paperSubscription: Subscription = {
  id: 'sub-1',
  ariaAccountNo: 4242,
  titleCode: 'ADR',
  ariaPlanID: 'ADR-COMBO-M',
  planName: 'Papir + digital',
  planProductType: 'COMBO',
  eligibleForSharing: true,
  instStatusCode: 1,
  subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: null },
  billingPeriod: 'MONTH',
  priceOre: 59_900,
  introductoryPrice: null,
  paymentMethod: 'CARD',
  features: { plusContent: true, ePaper: true, paper: true, familySharing: true, thirdPartyBundle: false },
  startedOn: '2024-01-01',
  currentPeriodEnd: '2026-12-31',
  cancelledAt: null,
  pendingChange: null,
  sharedFrom: null,
  companyDomain: null,
  maxMembers: 4,
};

export const subscriber: SignedInSession = { user: kari, account: kariAccount, subscription: paperSubscription };
export const withoutSubscription: SignedInSession = { user: kari, account: kariAccount, subscription: null };

export interface FakeIdentity extends IdentityClient {
  /** Who the fake says is signed in. */
  session: SignedInSession | null;
  /**
   * What `login` does: 'redirect' stays pending like a browser leaving for the provider;
   * a boolean is the logged-in check a failed login falls back to.
   */
  loginOutcome: 'redirect' | boolean;
  /** What `completeLogin` resolves with (the return target), or rejects with. */
  completion: { returnTo: string } | { error: unknown };
  readonly checks: CheckPurpose[];
  readonly logins: string[];
  readonly completions: HandleCodeBody[];
  logouts: number;
}

/** A fake identity client. It mirrors its answers into the session store, as the real one does. */
export function createFakeIdentity(initial: Partial<Pick<FakeIdentity, 'session' | 'loginOutcome' | 'completion'>> = {}): FakeIdentity {
  const fake: FakeIdentity = {
    session: initial.session ?? null,
    loginOutcome: initial.loginOutcome ?? 'redirect',
    completion: initial.completion ?? { returnTo: '/' },
    checks: [],
    logins: [],
    completions: [],
    logouts: 0,
    init() {},
    isInitialized: () => true,
    async checkSession(purpose = 'required') {
      fake.checks.push(purpose);
      if (fake.session) setSignedIn(sessionStore, fake.session, systemClock().getTime());
      else setSignedOut(sessionStore, systemClock().getTime());
      return fake.session;
    },
    async isLoggedIn() {
      return (await fake.checkSession()) !== null;
    },
    login(returnTo) {
      fake.logins.push(returnTo);
      if (fake.loginOutcome === 'redirect') return new Promise<boolean>(() => {});
      return Promise.resolve(fake.loginOutcome);
    },
    link(issuer, returnTo) {
      fake.logins.push(`${issuer}:${returnTo}`);
      return new Promise<void>(() => {});
    },
    async logout() {
      fake.logouts += 1;
      setSignedOut(sessionStore, systemClock().getTime());
    },
    async completeLogin(body) {
      fake.completions.push(body);
      if ('error' in fake.completion) throw fake.completion.error;
      return fake.completion.returnTo;
    },
    handleUnauthenticated(returnTo) {
      void fake.login(returnTo);
    },
    lastReturnTarget: () => '/',
    returnTargetOfLogin: async (_state, sent) => sent ?? fake.lastReturnTarget(),
    remember(session) {
      fake.session = session;
      setSignedIn(sessionStore, session, systemClock().getTime());
    },
    rememberUser(user) {
      if (fake.session) fake.session = { ...fake.session, user };
      const state = sessionStore.getState();
      if (state.status === 'signedIn') sessionStore.setState({ ...state, user });
    },
    seed(session) {
      fake.session = session;
      if (session) setSignedIn(sessionStore, session, systemClock().getTime());
      else setSignedOut(sessionStore, systemClock().getTime());
    },
  };
  return fake;
}
