import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from './catalogue.ts';
import { logoPathOf, resolveTitleCode, titleDomainOf } from './resolve.ts';

const allowed = { allowQueryOverride: true };
const notAllowed = { allowQueryOverride: false };

describe('resolveTitleCode', () => {
  it.each<[string, string, boolean, string | undefined]>([
    // production hosts
    ['production host', 'https://minside.adressa.no/', false, 'ADR'],
    ['production host with path', 'https://minside.varden.no/kundeservice?x=1', false, 'VAR'],
    ['production host of a default domain', 'https://minside.namdalsavisa.no', false, 'NAM'],
    ['production host in upper case', 'https://MINSIDE.ADRESSA.NO/', false, 'ADR'],
    ['production host with trailing dot', 'https://minside.adressa.no./', false, 'ADR'],
    ['the fallback title host', 'https://minside.polarismedia.no/', false, 'POL'],
    ['www host is not my page', 'https://www.adressa.no/', false, undefined],
    ['bare title domain is not my page', 'https://adressa.no/', false, undefined],
    ['publication slug is not a production domain', 'https://minside.adresseavisen.no/', false, undefined],
    ['unknown host', 'https://minside.example.com/', false, undefined],
    ['excluded title host', 'https://minside.vi.polarismedia.no/', false, undefined],
    // local development hosts
    ['localhost host with port and path', 'http://adresseavisen.localhost:3000/kundeservice', false, 'ADR'],
    ['localhost host without path', 'http://varden.localhost:3000', false, 'VAR'],
    ['localhost host without port', 'http://faedrelandsvennen.localhost/', false, 'FVN'],
    ['localhost host by domain is not a publication', 'http://adressa.localhost:3000/', false, undefined],
    ['unknown localhost host', 'http://nope.localhost:3000/', false, undefined],
    ['nested localhost host', 'http://x.adresseavisen.localhost:3000/', false, undefined],
    ['excluded localhost host', 'http://testavisen.localhost:3000/', false, undefined],
    ['bare localhost', 'http://localhost:3000/', false, undefined],
    // query override
    ['query override allowed', 'http://localhost:3000/?title=ADR', true, 'ADR'],
    ['query override in lower case', 'http://localhost:3000/?title=var', true, 'VAR'],
    ['query override wins over the host', 'https://minside.adressa.no/?title=VAR', true, 'VAR'],
    ['query override wins over localhost host', 'http://adresseavisen.localhost:3000/?title=var', true, 'VAR'],
    ['query override not allowed', 'http://localhost:3000/?title=ADR', false, undefined],
    ['query override not allowed keeps the host', 'https://minside.adressa.no/?title=VAR', false, 'ADR'],
    ['empty query override falls back to host', 'https://minside.adressa.no/?title=', true, 'ADR'],
    ['unknown code via query', 'http://localhost:3000/?title=XYZ', true, undefined],
    ['unknown code via query does not fall back to the host', 'https://minside.adressa.no/?title=XYZ', true, undefined],
    ['excluded code via query', 'http://localhost:3000/?title=XX', true, undefined],
    ['excluded code via query in lower case', 'http://localhost:3000/?title=kul', true, undefined],
    // malformed input
    ['malformed URL', 'not a url', true, undefined],
    ['empty string', '', true, undefined],
    ['host only without scheme', 'minside.adressa.no', false, undefined],
  ])('%s: %s', (_case, url, allowQueryOverride, expected) => {
    expect(resolveTitleCode(defaultCatalogue, url, { allowQueryOverride })).toBe(expected);
  });

  it.each(['XX', 'VI', 'RUI', 'KOF', 'KUL'])('never resolves excluded %s by any route', (code) => {
    const entry = defaultCatalogue.byTitleCode(code);
    expect(resolveTitleCode(defaultCatalogue, `${entry.minsideUrl}/`, notAllowed)).toBeUndefined();
    expect(resolveTitleCode(defaultCatalogue, `http://${entry.publication}.localhost:3000/`, notAllowed)).toBeUndefined();
    expect(resolveTitleCode(defaultCatalogue, `http://localhost/?title=${code}`, allowed)).toBeUndefined();
  });

  it('resolves every offered title from its own minsideUrl and localhost host', () => {
    for (const entry of defaultCatalogue.offered()) {
      expect(resolveTitleCode(defaultCatalogue, entry.minsideUrl, notAllowed), entry.titleCode).toBe(entry.titleCode);
      expect(resolveTitleCode(defaultCatalogue, `http://${entry.publication}.localhost:5173/`, notAllowed), entry.titleCode).toBe(entry.titleCode);
    }
  });
});

describe('titleDomainOf and logoPathOf', () => {
  it.each([
    ['ADR', 'adressa.no', '/logos/adressa.no.svg'],
    ['VAR', 'varden.no', '/logos/varden.no.svg'],
    ['POL', 'polarismedia.no', '/logos/polarismedia.no.svg'],
  ])('%s → %s, %s', (code, domain, logoPath) => {
    const entry = defaultCatalogue.byTitleCode(code);
    expect(titleDomainOf(entry)).toBe(domain);
    expect(logoPathOf(entry)).toBe(logoPath);
  });
});
