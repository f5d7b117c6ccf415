import { QueryClient } from '../lib/query/index.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BOOTSTRAP_ELEMENT_ID, type BootstrapData, type ClientConfig } from '@minside/domain';
import { createIdentityClient, type IdentityApi } from '../features/auth/index.ts';
import { createSessionStore } from '../features/auth/session.ts';
import { subscriber } from '../features/auth/testing/fake-identity.ts';
import { clientConfigQueryOptions } from '../features/privacy/index.ts';
import { maintenanceQueryOptions, resolveTitle } from '../features/titles/index.ts';
import { adresseavisen } from '../test/fixtures.ts';
import { seedFromBootstrap, takeBootstrap } from './bootstrap.ts';

const clientConfig: ClientConfig = { consent: { promptOnFirstVisit: true, sourcepoint: null }, analytics: null, rum: null };

function block(overrides: Partial<BootstrapData> = {}): BootstrapData {
  return {
    version: 1,
    host: window.location.host,
    titleCode: 'ADR',
    title: adresseavisen,
    maintenance: { titleCode: 'ADR', name: 'Adresseavisen', maintenance: false, message: 'Vi oppgraderer Min Side.' },
    clientConfig,
    session: null,
    ...overrides,
  };
}

/** Puts a data block into the document as the server does (JSON with `<` escaped). */
function putBlock(text: string): void {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = BOOTSTRAP_ELEMENT_ID;
  element.textContent = text;
  document.body.append(element);
}

const serialize = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

afterEach(() => {
  document.getElementById(BOOTSTRAP_ELEMENT_ID)?.remove();
});

describe('takeBootstrap', () => {
  it('reads the block of this site once and takes it out of the document', () => {
    const data = block({ title: { ...adresseavisen, name: '</script><b>Adresseavisen</b>' } });
    putBlock(serialize(data));
    expect(takeBootstrap()).toEqual(data);
    expect(document.getElementById(BOOTSTRAP_ELEMENT_ID)).toBeNull();
    expect(takeBootstrap()).toBeNull();
  });

  it('is null without a block (Vite’s own index.html)', () => {
    expect(takeBootstrap()).toBeNull();
  });

  it.each([
    ['not JSON', '{"version":1,'],
    ['another version', serialize({ ...block(), version: 2 })],
    ['another host', serialize(block({ host: 'minside.varden.no' }))],
    ['a title that is not the resolved one', serialize(block({ titleCode: 'VAR' }))],
    ['no client config', serialize({ ...block(), clientConfig: null })],
    ['a session without a user', serialize({ ...block(), session: { account: null } })],
    ['an array', '[]'],
  ])('is null for %s, so the app asks the server', (_name, text) => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    putBlock(text);
    expect(takeBootstrap()).toBeNull();
  });
});

describe('seedFromBootstrap', () => {
  const unusedApi: IdentityApi = {
    getSession: vi.fn(),
    getLoginToken: vi.fn(),
    handleCode: vi.fn(),
    logout: vi.fn(),
    getLoginReturn: vi.fn(),
  };

  it('fills the title, maintenance and client config caches, so resolving the title makes no call', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('no call expected'));
    const queryClient = new QueryClient();
    const identity = createIdentityClient({ api: unusedApi, store: createSessionStore(), storage: null });
    seedFromBootstrap(block(), queryClient, identity);

    await expect(resolveTitle(queryClient)).resolves.toEqual(adresseavisen);
    await queryClient.prefetchQuery(maintenanceQueryOptions());
    expect(queryClient.getQueryData(maintenanceQueryOptions().queryKey)).toMatchObject({ maintenance: false });
    expect(queryClient.getQueryData(clientConfigQueryOptions('ADR').queryKey)).toEqual(clientConfig);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('gives the signed-in session to the first checks without a session call; later checks follow the usual cache', async () => {
    let time = 1_700_000_000_000;
    const getSession = vi.fn<IdentityApi['getSession']>();
    const identity = createIdentityClient({ api: { ...unusedApi, getSession }, store: createSessionStore(), storage: null, now: () => time });
    identity.init({ titleCode: () => 'ADR' });
    seedFromBootstrap(block({ session: subscriber }), new QueryClient(), identity);

    await expect(identity.checkSession('required')).resolves.toEqual(subscriber);
    await expect(identity.checkSession('required')).resolves.toEqual(subscriber);
    expect(getSession).not.toHaveBeenCalled();
    // Past the SPEC §9 cache the server is asked again.
    time += 300_000;
    getSession.mockResolvedValueOnce({ ...subscriber, subscription: null, title: adresseavisen });
    await expect(identity.checkSession('required')).resolves.toEqual({ ...subscriber, subscription: null });
    expect(getSession).toHaveBeenCalledTimes(1);
  });

  it('answers the first required check with the page’s "signed out" (straight to the login), and asks the server after that', async () => {
    const getSession = vi.fn<IdentityApi['getSession']>().mockResolvedValue({ ...subscriber, title: adresseavisen });
    const identity = createIdentityClient({ api: { ...unusedApi, getSession }, store: createSessionStore(), storage: null });
    identity.init({ titleCode: () => 'ADR' });
    seedFromBootstrap(block({ session: null }), new QueryClient(), identity);

    await expect(identity.checkSession('required')).resolves.toBeNull();
    expect(getSession).not.toHaveBeenCalled();
    // A later required check (another navigation: the user may have logged in elsewhere) asks.
    await expect(identity.checkSession('required')).resolves.toEqual(subscriber);
    expect(getSession).toHaveBeenCalledTimes(1);
  });
});
