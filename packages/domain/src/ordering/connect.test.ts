import { describe, expect, it } from 'vitest';
import { connectMessages, searchAccountBodySchema } from './connect.ts';

describe('the subscription search (/koble-bruker)', () => {
  it.each([[''], ['abc'], ['12.5'], ['-4'], ['1234567890']])('answers a subscriber number like %j in Norwegian, at the field', (ariaAccountNo) => {
    const parsed = searchAccountBodySchema.safeParse({ ariaAccountNo, postalCode: '7011' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['ariaAccountNo', connectMessages.invalidAccountNo]]);
  });

  it('takes a subscriber number with a postal code, or a phone number', () => {
    expect(searchAccountBodySchema.parse({ ariaAccountNo: ' 40000099 ', postalCode: '7011' })).toEqual({ ariaAccountNo: 40_000_099, postalCode: '7011' });
    expect(searchAccountBodySchema.safeParse({ phoneNumber: '+47 912 34 567' }).success).toBe(true);
    expect(searchAccountBodySchema.safeParse({ postalCode: '7011' }).error?.issues[0]?.message).toBe(connectMessages.missingParameters);
  });
});
