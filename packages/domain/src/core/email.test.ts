import { describe, expect, it } from 'vitest';
import { emailDomainOf, isValidEmail, normaliseEmail } from './email.ts';
import { emailAddress } from './fields.ts';
import { businessEmailFormSchema, classifyInvitations } from '../business/business.ts';
import { familyInviteFormSchema } from '../family/family.ts';
import { emailChangeFormSchema } from '../profile/profile.ts';
import { studentEmailFormSchema } from '../student/student.ts';
import { isStudentEmail } from '../student/student-rules.ts';

// Issue 20 point 7: one e-mail address rule (the WHATWG `input type=email` rule, plus a dot in
// the domain and SMTP's lengths) for every address the product accepts.

const valid = ['kari.nordmann@adressa.no', 'ola+avis@firma.test', "o'brien@example.ie", 'a_b-c!#$%&*/=?^`{|}~@sub.domene.no', 'ansatt@firma.test', `${'a'.repeat(64)}@firma.no`];
const invalid = [
  ['x<ola>@firma.test', 'angle brackets (the issue)'],
  ['"ola"@firma.test', 'quotes'],
  ['ola nordmann@firma.test', 'a space'],
  ['ola(kommentar)@firma.test', 'a comment'],
  ['ola@firma..test', 'an empty label'],
  ['ola@-firma.test', 'a label starting with a hyphen'],
  ['ola@firma-.test', 'a label ending with a hyphen'],
  ['ola@firma.test.', 'a trailing dot'],
  ['ola@[127.0.0.1]', 'an address literal'],
  ['ola@localhost', 'no dot in the domain'],
  ['ola', 'no @'],
  ['@firma.test', 'no local part'],
  ['ola@', 'no domain'],
  ['ola@@firma.test', 'two @'],
  ['øystein@firma.no', 'non-ASCII local part'],
  ['ola@firma.test\r\nBcc: x@y.no', 'a header injection'],
  ['nul\u0000byte@firma.test', 'a NUL'],
  ['bell\u0007@firma.test', 'a control character'],
  [`${'a'.repeat(65)}@firma.no`, 'a local part over 64'],
  [`ola@${Array.from({ length: 5 }, () => 'a'.repeat(50)).join('.')}.no`, 'over 254 in all'],
  [`ola@${'a'.repeat(64)}.no`, 'a label over 63'],
] as const;

describe('isValidEmail', () => {
  it.each(valid)('accepts %s', (address) => expect(isValidEmail(address)).toBe(true));
  it.each(invalid)('refuses %j (%s)', (address) => expect(isValidEmail(address)).toBe(false));

  it('normalises by trimming and lower-casing, and names the domain', () => {
    expect(normaliseEmail('  Kari@Adressa.NO ')).toBe('kari@adressa.no');
    expect(emailDomainOf('kari@Adressa.no')).toBe('adressa.no');
    expect(emailDomainOf('ingen-krøllalfa')).toBe('');
  });
});

describe('every schema and rule that takes an address uses it', () => {
  const forms = [
    ['the e-mail change form', (email: string) => emailChangeFormSchema.safeParse({ newEmail: email, password: 'hemmelig1' }).success],
    ['the family invitation form', (email: string) => familyInviteFormSchema.safeParse({ email }).success],
    ['the business work address form', (email: string) => businessEmailFormSchema.safeParse({ email }).success],
    ['the student address form', (email: string) => studentEmailFormSchema.safeParse({ email }).success],
    ['emailAddress()', (email: string) => emailAddress().safeParse(email).success],
  ] as const;

  it.each(forms)('%s agrees with isValidEmail', (_name, accepts) => {
    for (const address of valid) expect(accepts(address), address).toBe(true);
    for (const [address] of invalid) expect(accepts(address), address).toBe(false);
  });

  it('a pasted business list flags the invalid addresses and sends only the valid ones', () => {
    const results = classifyInvitations(['x<ola>@firma.test', 'kari@firma.test'], { companyDomain: 'firma.test', existing: new Set(), remaining: 10 });
    expect(results.map((entry) => entry.result)).toEqual(['invalidEmail', 'emailSent']);
  });

  it('a student address must be a valid address at an approved institution', () => {
    expect(isStudentEmail('kari@stud.ntnu.no', ['stud.ntnu.no'])).toBe(true);
    expect(isStudentEmail('x<kari>@stud.ntnu.no', ['stud.ntnu.no'])).toBe(false);
  });

  it('an empty field gets only the required message, a malformed one only the invalid one', () => {
    const schema = emailAddress({ required: 'E-post er påkrevd', invalid: 'Ugyldig' });
    expect(schema.safeParse('  ').error?.issues.map((issue) => issue.message)).toEqual(['E-post er påkrevd']);
    expect(schema.safeParse('x<ola>@firma.test').error?.issues.map((issue) => issue.message)).toEqual(['Ugyldig']);
    expect(schema.parse('  kari@adressa.no ')).toBe('kari@adressa.no');
  });
});
