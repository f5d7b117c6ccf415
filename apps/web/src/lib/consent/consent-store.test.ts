import { describe, expect, it, vi } from 'vitest';
import { createConsentStore } from './consent-store.ts';

const none = { analytics: false, marketing: false, personalisation: false };

describe('consent store: the one gate for what needs consent', () => {
  it('runs what waits for analytics only once it is granted, and only once', () => {
    const store = createConsentStore({ read: () => null, write: () => {} });
    const start = vi.fn();
    store.whenGranted('analytics', start);
    store.openManager();
    store.choose({ ...none, marketing: true });
    expect(start).not.toHaveBeenCalled();
    store.choose({ ...none, analytics: true });
    store.choose({ ...none, analytics: true, marketing: true });
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('runs at once when consent is already there, and not after a cancel', () => {
    const granted = createConsentStore({ read: () => ({ ...none, analytics: true }), write: () => {} });
    const now = vi.fn();
    granted.whenGranted('analytics', now);
    expect(now).toHaveBeenCalledTimes(1);

    const later = createConsentStore({ read: () => null, write: () => {} });
    const never = vi.fn();
    const cancel = later.whenGranted('analytics', never);
    cancel();
    later.choose({ ...none, analytics: true });
    expect(never).not.toHaveBeenCalled();
  });

  it('writes every choice through to the browser keys', () => {
    const write = vi.fn();
    const store = createConsentStore({ read: () => null, write });
    store.choose({ ...none, personalisation: true });
    expect(write).toHaveBeenCalledWith({ ...none, personalisation: true });
    expect(store.getState().choices).toEqual({ ...none, personalisation: true });
  });

  it('opens the built-in dialog, or the vendor manager once a vendor took over', () => {
    const store = createConsentStore({ read: () => null, write: () => {} });
    store.openManager();
    expect(store.getState().dialogOpen).toBe(true);
    store.closeDialog();
    const vendor = vi.fn();
    store.setVendorManager(vendor);
    store.openManager();
    expect(vendor).toHaveBeenCalledTimes(1);
    expect(store.getState().dialogOpen).toBe(false);
  });

  it('starts from the cookies and reads local storage once, when consent is first acted on', () => {
    const read = vi.fn(() => ({ ...none, analytics: true }));
    const store = createConsentStore({ read, readServer: () => null, write: () => {} });
    // What the server rendered with, and all the hydration may see: local storage is not opened yet.
    expect(read).not.toHaveBeenCalled();
    expect(store.getState().choices).toBeNull();
    expect(store.isGranted('analytics')).toBe(true);
    expect(store.isGranted('marketing')).toBe(false);
    store.settle();
    expect(read).toHaveBeenCalledTimes(1);
    expect(store.getState().choices).toEqual({ ...none, analytics: true });
  });

  it('tells what waits on it when the choice in local storage is taken in, and keeps a choice made before that', () => {
    const settled = createConsentStore({ read: () => ({ ...none, marketing: true }), readServer: () => null, write: () => {} });
    const listener = vi.fn();
    settled.subscribe(listener);
    settled.settle();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(settled.getState().choices).toEqual({ ...none, marketing: true });

    const opened = createConsentStore({ read: () => ({ ...none, marketing: true }), readServer: () => null, write: () => {} });
    opened.openManager();
    // The dialog starts from the choice as it is, not from the cookies' part of it.
    expect(opened.getState()).toEqual({ choices: { ...none, marketing: true }, dialogOpen: true });

    const read = vi.fn(() => ({ ...none, marketing: true }));
    const chosen = createConsentStore({ read, readServer: () => null, write: () => {} });
    chosen.choose({ ...none, analytics: true });
    chosen.settle();
    expect(read).not.toHaveBeenCalled();
    expect(chosen.getState().choices).toEqual({ ...none, analytics: true });
  });
});
