import { describe, expect, it } from 'vitest';
import { defaultStudentEmailDomains, isStudentEmail, isStudentSubscription, studentReminderFrom, studentReverifyBy, studentStatusState } from './student.ts';

describe('isStudentEmail', () => {
  const domains = [...defaultStudentEmailDomains, '*.test'];
  it.each([
    ['ola@stud.ntnu.no', true],
    ['OLA@Student.UIB.no', true],
    ['ola@sub.stud.ntnu.no', true],
    ['ola@ntnu.no', false],
    ['ola@evilstud.ntnu.no', false],
    ['ola@stud.ntnu.no.example.com', false],
    ['ola@uni.test', true],
    ['ola@test', false],
    ['ikke-en-adresse', false],
  ])('%s → %s', (email, expected) => {
    expect(isStudentEmail(email, domains)).toBe(expected);
  });
  it('accepts nothing from an empty list', () => {
    expect(isStudentEmail('ola@stud.ntnu.no', [])).toBe(false);
  });
});

describe('yearly re-verification', () => {
  it('is due a year after verification, with a reminder 30 days before', () => {
    expect(studentReverifyBy('2026-03-15')).toBe('2027-03-15');
    expect(studentReminderFrom('2026-03-15')).toBe('2027-02-13');
    expect(studentStatusState('2026-03-15', '2027-02-12')).toBe('ok');
    expect(studentStatusState('2026-03-15', '2027-02-13')).toBe('dueSoon');
    expect(studentStatusState('2026-03-15', '2027-03-15')).toBe('dueSoon');
    expect(studentStatusState('2026-03-15', '2027-03-16')).toBe('overdue');
  });
  it('a student subscription has STUDENT in its plan id', () => {
    expect(isStudentSubscription({ ariaPlanID: 'ADR-STUDENT-DIGITAL-M' })).toBe(true);
    expect(isStudentSubscription({ ariaPlanID: 'ADR-DIGITAL-M' })).toBe(false);
  });
});
