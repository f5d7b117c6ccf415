import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/http.ts';
import { createSessionChecker, decideSessionCheck, SEEDED_ANSWER_MS, SESSION_CACHE_MS, SESSION_CALL_BLOCK_MS, type CheckPurpose } from './session-cache.ts';
import { createSessionStore, type SessionStatus, type SignedInSession } from './session.ts';
import { subscriber } from './testing/fake-identity.ts';

describe('decideSessionCheck', () => {
  const at = 1_000_000;
  const cases: Array<[status: SessionStatus, age: number, purpose: CheckPurpose, expected: 'reuse' | 'ask']> = [
    ['unknown', 0, 'opportunistic', 'ask'],
    ['signedIn', 0, 'required', 'reuse'],
    ['signedIn', SESSION_CACHE_MS - 1, 'required', 'reuse'],
    ['signedIn', SESSION_CACHE_MS, 'required', 'ask'],
    ['signedIn', SESSION_CACHE_MS, 'opportunistic', 'ask'],
    ['signedOut', 1, 'required', 'ask'],
    ['signedOut', SESSION_CACHE_MS - 1, 'opportunistic', 'reuse'],
    ['signedOut', SESSION_CACHE_MS, 'opportunistic', 'ask'],
    ['unavailable', SESSION_CALL_BLOCK_MS - 1, 'required', 'reuse'],
    ['unavailable', SESSION_CALL_BLOCK_MS - 1, 'opportunistic', 'reuse'],
    ['unavailable', SESSION_CALL_BLOCK_MS, 'required', 'ask'],
    ['signedIn', -1, 'required', 'ask'],
  ];

  it.each(cases)('%s, %i ms old, %s → %s', (status, age, purpose, expected) => {
    expect(decideSessionCheck({ status, checkedAt: status === 'unknown' ? null : at }, at + age, purpose)).toBe(expected);
  });

  it('uses the SPEC §9 times: 300 s cache, 5 min block', () => {
    expect(SESSION_CACHE_MS).toBe(300 * 1000);
    expect(SESSION_CALL_BLOCK_MS).toBe(5 * 60 * 1000);
  });
});

/** A session checker on a hand-turned clock, whose session call answers as a test tells it. */
function setUp() {
  let time = 1_700_000_000_000;
  const answers: Array<SignedInSession | Error> = [];
  const store = createSessionStore();
  const fetchSession = vi.fn(async (): Promise<SignedInSession> => {
    const answer = answers.shift();
    if (!answer) throw new Error('the test gave no answer');
    if (answer instanceof Error) throw answer;
    return answer;
  });
  const checker = createSessionChecker({ store, fetchSession, now: () => time });
  return {
    store,
    checker,
    fetchSession,
    answer: (next: SignedInSession | Error) => answers.push(next),
    advance: (ms: number) => {
      time += ms;
    },
  };
}

const notAuthenticated = () => new ApiError(401, 'NOT_AUTHENTICATED', 'Du må logge inn for å fortsette.');

describe('session checker', () => {
  it('reuses a signed-in answer for 300 s without calling the server', async () => {
    const { checker, fetchSession, answer, advance, store } = setUp();
    answer(subscriber);
    expect(await checker.check()).toEqual(subscriber);
    expect(store.getState()).toMatchObject({ status: 'signedIn', user: subscriber.user, subscription: subscriber.subscription });

    advance(SESSION_CACHE_MS - 1);
    expect(await checker.check()).toEqual(subscriber);
    expect(fetchSession).toHaveBeenCalledTimes(1);

    advance(1);
    answer(subscriber);
    await checker.check();
    expect(fetchSession).toHaveBeenCalledTimes(2);
  });

  it('takes a 401 as "not logged in", not as a failure: a guarded route asks again at once', async () => {
    const { checker, fetchSession, answer, advance, store } = setUp();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    answer(notAuthenticated());
    expect(await checker.check()).toBeNull();
    expect(store.getState().status).toBe('signedOut');
    expect(error).not.toHaveBeenCalled();

    advance(1_000);
    answer(subscriber);
    expect(await checker.check('required')).toEqual(subscriber);
    expect(fetchSession).toHaveBeenCalledTimes(2);
  });

  it('lets a public route reuse a recent "not logged in"', async () => {
    const { checker, fetchSession, answer, advance } = setUp();
    answer(notAuthenticated());
    await checker.check('opportunistic');
    advance(SESSION_CACHE_MS - 1);
    expect(await checker.check('opportunistic')).toBeNull();
    expect(fetchSession).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['a 5xx', new ApiError(503, 'SERVICE_UNAVAILABLE', 'Tjenesten er midlertidig utilgjengelig.')],
    ['a network error', new ApiError(0, 'NETWORK_ERROR', 'Kunne ikke kontakte Min Side.')],
  ])('after %s, makes no session call for 5 minutes and counts as signed out', async (_, failure) => {
    const { checker, fetchSession, answer, advance, store } = setUp();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    answer(failure);
    expect(await checker.check()).toBeNull();
    expect(store.getState()).toMatchObject({ status: 'unavailable', user: null });

    advance(SESSION_CALL_BLOCK_MS - 1);
    expect(await checker.check('required')).toBeNull();
    expect(fetchSession).toHaveBeenCalledTimes(1);

    advance(1);
    answer(subscriber);
    expect(await checker.check('required')).toEqual(subscriber);
    expect(fetchSession).toHaveBeenCalledTimes(2);
  });

  it('clears a signed-in user when a later check fails', async () => {
    const { checker, answer, advance, store } = setUp();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    answer(subscriber);
    await checker.check();
    advance(SESSION_CACHE_MS);
    answer(new ApiError(500, 'INTERNAL_ERROR', 'Noe gikk galt hos oss.'));
    expect(await checker.check()).toBeNull();
    expect(store.getState()).toMatchObject({ status: 'unavailable', user: null, account: null, subscription: null });
  });

  it('serves simultaneous checks with one call', async () => {
    const { checker, fetchSession, answer } = setUp();
    answer(subscriber);
    const results = await Promise.all([checker.check(), checker.check('opportunistic'), checker.check()]);
    expect(results).toEqual([subscriber, subscriber, subscriber]);
    expect(fetchSession).toHaveBeenCalledTimes(1);
  });

  it('discards an answer in flight once the session is forgotten (logout, 401)', async () => {
    const { checker, answer, store } = setUp();
    answer(subscriber);
    const pending = checker.check();
    checker.forget();
    expect(await pending).toBeNull();
    expect(store.getState().status).toBe('signedOut');
  });

  it('remembers a session learnt at login as fresh as a check', async () => {
    const { checker, fetchSession, advance } = setUp();
    checker.remember(subscriber);
    advance(SESSION_CACHE_MS - 1);
    expect(await checker.check()).toEqual(subscriber);
    expect(fetchSession).not.toHaveBeenCalled();
  });

  it('takes in the user’s new details without making the session, and its subscription, fresh again', async () => {
    const { checker, fetchSession, answer, advance, store } = setUp();
    checker.remember(subscriber);
    advance(SESSION_CACHE_MS - 10);
    const renamed = { ...subscriber.user, givenName: 'Kari Nordmann' };
    checker.rememberUser(renamed);
    expect(store.getState()).toMatchObject({ status: 'signedIn', user: renamed, subscription: subscriber.subscription });
    advance(10);
    answer({ ...subscriber, user: renamed });
    await checker.check();
    expect(fetchSession).toHaveBeenCalledTimes(1);
  });

  it('a check asked for before a profile change still counts when it answers, with the new details over its own', async () => {
    const { checker, fetchSession, answer, advance, store } = setUp();
    checker.remember(subscriber);
    advance(SESSION_CACHE_MS);
    answer(subscriber);
    const pending = checker.check();
    const renamed = { ...subscriber.user, givenName: 'Kari Nordmann' };
    checker.rememberUser(renamed);
    expect(await pending).toEqual({ ...subscriber, user: renamed });
    expect(store.getState().user).toEqual(renamed);
    // The answer made the session fresh: the next check reuses it.
    advance(SESSION_CACHE_MS - 1);
    await checker.check();
    expect(fetchSession).toHaveBeenCalledTimes(1);
  });

  it('seeds the page’s "signed out": the first check of the load uses it, later required checks ask', async () => {
    const { checker, fetchSession, answer, store } = setUp();
    checker.seed(null);
    expect(store.getState().status).toBe('signedOut');
    expect(await checker.check('required')).toBeNull();
    expect(fetchSession).not.toHaveBeenCalled();
    answer(subscriber);
    expect(await checker.check('required')).toEqual(subscriber);
    expect(fetchSession).toHaveBeenCalledTimes(1);
  });

  it('does not take a seeded "signed out" for a fresh answer once SEEDED_ANSWER_MS has passed', async () => {
    const { checker, fetchSession, answer, advance } = setUp();
    checker.seed(null);
    advance(SEEDED_ANSWER_MS);
    answer(subscriber);
    expect(await checker.check('required')).toEqual(subscriber);
    expect(fetchSession).toHaveBeenCalledTimes(1);
  });

  it('seeds a signed-in session as fresh as a check', async () => {
    const { checker, fetchSession, advance } = setUp();
    checker.seed(subscriber);
    advance(SESSION_CACHE_MS - 1);
    expect(await checker.check('required')).toEqual(subscriber);
    expect(fetchSession).not.toHaveBeenCalled();
  });
});
