import { describe, expect, it, vi } from 'vitest';
import type { ConsentState } from '@minside/domain';
import { createConsentStore } from '../../lib/consent/consent-store.ts';
import { createConsentSync, PENDING_SYNC_KEY, type ConsentSyncDeps } from './consent-sync.ts';

const granted = { analytics: true, marketing: false, personalisation: false };
const empty: ConsentState = { current: null, history: [] };

function setUp(signedIn: boolean, overrides: Partial<ConsentSyncDeps> = {}) {
  localStorage.clear();
  const consent = createConsentStore({ read: () => null, write: () => {} });
  const put = vi.fn(async () => empty);
  const get = vi.fn(async () => empty);
  const sync = createConsentSync({ consent, isSignedIn: () => signedIn, titleCode: () => 'ADR', storage: localStorage, put, get, ...overrides });
  return { consent, put, get, sync };
}

describe('consent kept on the server for signed-in users', () => {
  it('a signed-in choice is stored in the browser and sent with the title', async () => {
    const { consent, put, sync } = setUp(true);
    await sync.save(granted, 'dialog');
    expect(consent.getState().choices).toEqual(granted);
    expect(put).toHaveBeenCalledWith({ choices: granted, source: 'dialog', titleCode: 'ADR' });
    expect(localStorage.getItem(PENDING_SYNC_KEY)).toBeNull();
  });

  it("keep sends a choice the page has applied already, without touching the browser's copy", async () => {
    const choose = vi.fn();
    const { consent, put, sync } = setUp(true);
    consent.subscribe(choose);
    await sync.keep(granted, 'vendor');
    expect(put).toHaveBeenCalledWith({ choices: granted, source: 'vendor', titleCode: 'ADR' });
    expect(choose).not.toHaveBeenCalled();
    expect(consent.getState().choices).toBeNull();
  });

  it('keep while signed out leaves the choice waiting for the next login', async () => {
    const { put, sync } = setUp(false);
    await sync.keep(granted, 'dialog');
    expect(put).not.toHaveBeenCalled();
    expect(localStorage.getItem(PENDING_SYNC_KEY)).toBe('1');
  });

  it('a choice made while signed out waits for the next login, then is sent', async () => {
    const { put, sync } = setUp(false);
    await sync.save(granted, 'dialog');
    expect(put).not.toHaveBeenCalled();
    expect(localStorage.getItem(PENDING_SYNC_KEY)).toBe('1');
    await sync.onSignedIn();
    expect(put).toHaveBeenCalledWith({ choices: granted, source: 'dialog', titleCode: 'ADR' });
    expect(localStorage.getItem(PENDING_SYNC_KEY)).toBeNull();
  });

  it('at login, a choice waiting in local storage is sent before the page has read it in', async () => {
    const { put, get, sync } = setUp(true, { consent: createConsentStore({ read: () => granted, readServer: () => null, write: () => {} }) });
    localStorage.setItem(PENDING_SYNC_KEY, '1');
    await sync.onSignedIn();
    expect(put).toHaveBeenCalledWith({ choices: granted, source: 'dialog', titleCode: 'ADR' });
    expect(get).not.toHaveBeenCalled();
  });

  it("at login without a choice waiting, the user's own choice from the server holds here too and the prompt closes", async () => {
    const get = vi.fn(async (): Promise<ConsentState> => {
      const record = { choices: granted, source: 'settings' as const, titleCode: 'ADR', givenAt: '2026-01-01T00:00:00.000Z' };
      return { current: record, history: [record] };
    });
    const { consent, put, sync } = setUp(true, { get });
    consent.openManager();
    await sync.onSignedIn();
    expect(consent.getState()).toEqual({ choices: granted, dialogOpen: false });
    expect(put).not.toHaveBeenCalled();
  });

  it('a choice made here while the server answers at login stands: the older choice from the server does not replace it', async () => {
    const denied = { analytics: false, marketing: false, personalisation: false };
    let answer: (state: ConsentState) => void = () => {};
    const get = vi.fn(() => new Promise<ConsentState>((resolve) => (answer = resolve)));
    const { consent, sync } = setUp(true, { get });
    const signedIn = sync.onSignedIn();
    consent.choose(denied);
    const record = { choices: granted, source: 'settings' as const, titleCode: 'ADR', givenAt: '2026-01-01T00:00:00.000Z' };
    answer({ current: record, history: [record] });
    await signedIn;
    expect(consent.getState().choices).toEqual(denied);
  });

  it('a server that cannot be reached leaves the choice in the browser and tries again at the next login', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const put = vi.fn(async (): Promise<ConsentState> => {
      throw new Error('offline');
    });
    const { consent, sync } = setUp(true, { put });
    await sync.save(granted, 'dialog');
    expect(consent.getState().choices).toEqual(granted);
    expect(localStorage.getItem(PENDING_SYNC_KEY)).toBe('1');
    expect(error).toHaveBeenCalled();
  });
});
