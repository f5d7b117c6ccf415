import { describe, expect, it } from 'vitest';
import { businessMembersCsv, classifyInvitations, splitEmailList } from './business.ts';

describe('splitEmailList (SPEC §5 separators)', () => {
  it('splits on commas, semicolons, spaces and line breaks', () => {
    expect(splitEmailList(' a@x.no, b@x.no;c@x.no\n\td@x.no  <e@x.no>;;')).toEqual(['a@x.no', 'b@x.no', 'c@x.no', 'd@x.no', 'e@x.no']);
    expect(splitEmailList(' ,;\n')).toEqual([]);
  });
});

describe('classifyInvitations', () => {
  const check = { companyDomain: 'firma.test', existing: new Set(['old@firma.test']), remaining: 2 };
  it('flags invalid, duplicate, foreign and existing addresses, and enforces the seats', () => {
    const result = classifyInvitations(['a@firma.test', 'nope', 'A@FIRMA.test', 'b@annet.no', 'old@firma.test', 'c@firma.test', 'd@firma.test'], check);
    expect(result.map((item) => item.result)).toEqual(['emailSent', 'invalidEmail', 'duplicate', 'wrongEmailDomain', 'userExist', 'emailSent', 'maxUsersReached']);
    expect(result[2]?.email).toBe('a@firma.test');
  });
  it('a subdomain is another domain', () => {
    expect(classifyInvitations(['a@sub.firma.test'], check)[0]?.result).toBe('wrongEmailDomain');
  });
});

describe('businessMembersCsv', () => {
  it('writes semicolon CSV with a BOM and neutralises formulas', () => {
    const csv = businessMembersCsv([
      { email: 'a@firma.test', addedAt: '2026-01-02T10:00:00.000Z', status: 'active' },
      { email: '=cmd@firma.test', addedAt: '2026-01-03T10:00:00.000Z', status: 'emailSent' },
    ]);
    expect(csv).toBe("\uFEFFE-post;Lagt til;Status\r\na@firma.test;2026-01-02;Aktiv\r\n'=cmd@firma.test;2026-01-03;Sendt\r\n");
  });
});
