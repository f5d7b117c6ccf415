import { describe, expect, it } from 'vitest';
import { flattenRoutes, generatePath, matchPath, matchRoutes } from './match.ts';

describe('matchPath', () => {
  it('matches static segments, case-insensitively and with a trailing slash, as React Router does', () => {
    expect(matchPath('/vilkaar/bedrift', '/vilkaar/bedrift')?.params).toEqual({});
    expect(matchPath('/vilkaar/bedrift', '/Vilkaar/Bedrift/')).not.toBeNull();
    expect(matchPath('/vilkaar', '/vilkaar/bedrift')).toBeNull();
    expect(matchPath('/vilkaar', '/vilkaar-mer')).toBeNull();
    expect(matchPath('/', '/')).not.toBeNull();
    expect(matchPath('/', '/kundeservice')).toBeNull();
    // An optional param or a splat after the static part: the static part alone matches too.
    expect(matchPath('/vilkaar/:kind?', '/Vilkaar')?.params).toEqual({ kind: undefined });
    expect(matchPath('/vilkaar/*', '/vilkaar')).not.toBeNull();
    expect(matchPath('/vilkaar/:kind?', '/vilkaarene')).toBeNull();
    // The segments as the pattern language reads them: a relative pattern, a doubled slash, a colon inside a segment.
    expect(matchPath('vilkaar', '/vilkaar')).not.toBeNull();
    expect(matchPath('/vilkaar//bedrift', '/vilkaar/bedrift')).not.toBeNull();
    expect(matchPath('/a:b/:id', '/a:b/7')?.params).toEqual({ id: '7' });
  });

  it('takes params, decoded, and leaves an optional one out', () => {
    expect(matchPath('/betal-faktura/:ariaInvoiceNo', '/betal-faktura/INV%2042')?.params).toEqual({ ariaInvoiceNo: 'INV 42' });
    expect(matchPath('/betal-faktura/:ariaInvoiceNo', '/betal-faktura')).toBeNull();
    expect(matchPath('/side/:tab?', '/side')?.params).toEqual({ tab: undefined });
    expect(matchPath('/side/:tab?', '/side/a')?.params).toEqual({ tab: 'a' });
  });

  it('matches the rest of the path with a splat', () => {
    expect(matchPath('/*', '/a/b/c')?.params).toEqual({ '*': 'a/b/c' });
    expect(matchPath('/*', '/')).not.toBeNull();
  });

  it('takes no regular-expression meaning from a pattern', () => {
    expect(matchPath('/a.b', '/axb')).toBeNull();
  });
});

describe('generatePath', () => {
  it('fills in and encodes params, and refuses a missing one', () => {
    expect(generatePath('/betal-faktura/:ariaInvoiceNo', { ariaInvoiceNo: 'INV 42/1' })).toBe('/betal-faktura/INV%2042%2F1');
    expect(generatePath('/kundeservice')).toBe('/kundeservice');
    expect(() => generatePath('/betal-faktura/:ariaInvoiceNo')).toThrow('Missing ":ariaInvoiceNo" param');
  });
});

describe('matchRoutes', () => {
  const routes = [
    {
      id: 'root',
      children: [
        { path: '*', id: 'splat' },
        { path: '/betal-faktura/:no', id: 'pay' },
        { path: '/betal-faktura/ny', id: 'new' },
        { path: '/', handle: 'home' },
      ],
    },
  ];
  const branches = flattenRoutes(routes);
  const ids = (pathname: string) => matchRoutes(branches, pathname).map((match) => match.id);

  it('ranks static segments over params over a splat, whatever the order of the table', () => {
    expect(ids('/betal-faktura/ny')).toEqual(['root', 'new']);
    expect(ids('/betal-faktura/7')).toEqual(['root', 'pay']);
    expect(ids('/finnes-ikke')).toEqual(['root', 'splat']);
  });

  it('gives a route without an id one from its place, and each match its handle and params', () => {
    const [, home] = matchRoutes(branches, '/');
    expect(home).toMatchObject({ id: 'root-3', handle: 'home', params: {} });
    expect(matchRoutes(branches, '/betal-faktura/7')[1]?.params).toEqual({ no: '7' });
  });
});
