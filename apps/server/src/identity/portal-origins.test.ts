import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '@minside/titles';
import { createRedirectPolicy, redirectPolicyFor } from './portal-origins.ts';

const titles = [
  { publication: 'adresseavisen', baseUrl: 'adressa.no' },
  { publication: 'polarisavis', baseUrl: 'pol.no' },
];
const policy = createRedirectPolicy({ publicUrl: 'https://minside.example.no/', titles });
const withoutPublicUrl = createRedirectPolicy({ publicUrl: undefined, titles });

describe('redirect_uri rule', () => {
  it.each([
    'https://minside.adressa.no/callback',
    'https://minside.pol.no/callback',
    'https://minside.adressa.no:443/callback',
    'https://MINSIDE.Adressa.no/callback',
    'https://minside.example.no/callback',
  ])('allows %s', (uri) => {
    expect(policy.redirectUriAllowed(uri)).toBe(true);
  });

  it.each([
    'http://localhost:3000/callback',
    'http://localhost:5173/callback',
    'http://localhost/callback',
    'http://127.0.0.1:8080/callback',
    'http://adresseavisen.localhost:3000/callback',
    'http://polarisavis.localhost:5173/callback',
  ])('allows the development host %s unless PUBLIC_URL is https', (uri) => {
    expect(withoutPublicUrl.redirectUriAllowed(uri)).toBe(true);
    expect(policy.redirectUriAllowed(uri)).toBe(false);
  });

  it('knows the origins the portal serves', () => {
    expect(policy.originAllowed('https://minside.adressa.no')).toBe(true);
    expect(policy.originAllowed('https://minside.example.no')).toBe(true);
    expect(policy.originAllowed('http://localhost:3000')).toBe(false);
    expect(policy.originAllowed('https://evil.example')).toBe(false);
    expect(withoutPublicUrl.originAllowed('http://adresseavisen.localhost:3000')).toBe(true);
    expect(withoutPublicUrl.originAllowed('http://localhost:80')).toBe(false);
    expect(withoutPublicUrl.originAllowed('http://localhost')).toBe(true);
  });

  it.each([
    ['a foreign origin', 'https://evil.example/callback'],
    ['another path', 'https://minside.adressa.no/other'],
    ['a path below /callback', 'https://minside.adressa.no/callback/x'],
    ['a trailing slash', 'https://minside.adressa.no/callback/'],
    ['a query', 'https://minside.adressa.no/callback?next=https://evil.example'],
    ['a fragment', 'https://minside.adressa.no/callback#x'],
    ['an empty fragment', 'https://minside.adressa.no/callback#'],
    ['credentials', 'https://user:pw@minside.adressa.no/callback'],
    ['plain http on a title host', 'http://minside.adressa.no/callback'],
    ['a non-default port on a title host', 'https://minside.adressa.no:8443/callback'],
    ['a title host as a suffix', 'https://minside.adressa.no.evil.example/callback'],
    ['a sub-subdomain of a title host', 'https://x.minside.adressa.no/callback'],
    ['the bare title domain', 'https://adressa.no/callback'],
    ['https on localhost', 'https://localhost:3000/callback'],
    ['an unknown dev publication', 'http://evil.localhost:3000/callback'],
    ['a nested dev host', 'http://x.adresseavisen.localhost:3000/callback'],
    ['another loopback spelling', 'http://0.0.0.0:3000/callback'],
    ['the public origin with http', 'http://minside.example.no/callback'],
    ['another scheme', 'javascript://localhost/callback'],
    ['not a URL', 'not a url'],
    ['the empty string', ''],
  ])('refuses %s', (_label, uri) => {
    expect(policy.redirectUriAllowed(uri)).toBe(false);
  });

  it('without PUBLIC_URL only the title and loopback origins are allowed', () => {
    expect(withoutPublicUrl.redirectUriAllowed('https://minside.example.no/callback')).toBe(false);
    expect(withoutPublicUrl.redirectUriAllowed('https://minside.adressa.no/callback')).toBe(true);
  });
});

describe('post_logout_redirect_uri rule', () => {
  it('allows any path on an allowed origin', () => {
    expect(policy.postLogoutRedirectUriAllowed('https://minside.adressa.no/')).toBe(true);
    expect(policy.postLogoutRedirectUriAllowed('https://minside.adressa.no/logget-ut?fra=minside')).toBe(true);
    expect(withoutPublicUrl.postLogoutRedirectUriAllowed('http://adresseavisen.localhost:3000/')).toBe(true);
    expect(policy.postLogoutRedirectUriAllowed('http://adresseavisen.localhost:3000/')).toBe(false);
    expect(policy.postLogoutRedirectUriAllowed('https://minside.example.no/x')).toBe(true);
  });

  it('refuses foreign origins, fragments and credentials', () => {
    expect(policy.postLogoutRedirectUriAllowed('https://evil.example/')).toBe(false);
    expect(policy.postLogoutRedirectUriAllowed('https://minside.adressa.no/#x')).toBe(false);
    expect(policy.postLogoutRedirectUriAllowed('https://a:b@minside.adressa.no/')).toBe(false);
  });
});

describe('titleOf', () => {
  it('names the title of a title origin and nothing for other allowed origins', () => {
    expect(policy.titleOf('https://minside.adressa.no/callback')?.publication).toBe('adresseavisen');
    expect(withoutPublicUrl.titleOf('http://polarisavis.localhost:3000/callback')?.publication).toBe('polarisavis');
    expect(policy.titleOf('http://localhost:3000/callback')).toBeUndefined();
    expect(policy.titleOf('https://evil.example/callback')).toBeUndefined();
  });

  it('knows every offered title of the real catalogue on both host forms, and no excluded one', () => {
    const real = redirectPolicyFor(undefined, defaultCatalogue);
    for (const title of defaultCatalogue.offered()) {
      expect(real.redirectUriAllowed(`https://minside.${title.baseUrl}/callback`)).toBe(true);
      expect(real.redirectUriAllowed(`http://${title.publication}.localhost:3000/callback`)).toBe(true);
    }
    const offered = new Set(defaultCatalogue.offered().map((title) => title.publication));
    for (const title of defaultCatalogue.all().filter((entry) => !offered.has(entry.publication))) {
      expect(real.redirectUriAllowed(`http://${title.publication}.localhost:3000/callback`)).toBe(false);
    }
  });
});
