import { BUSINESS_INVITE_BATCH_LIMIT, businessErrorCodes, businessMessages, type BusinessOverview } from '@minside/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { paperSubscription, subscriber } from '../../auth/testing/fake-identity.ts';
import { expectFocusedSummary, followSummaryLink } from '../../../test/error-summary.ts';
import { cleanupPage, json, refusal, renderPage, type Answer } from '../../../test/render-page.tsx';
import { BusinessAdminPage } from './business-admin-page.tsx';

// Issue 25.12: the admin's invite and EHF forms move the focus to their error summary after a
// submit that ends in field errors (SPEC §5 messages), and its links lead to the fields.

const overview: BusinessOverview = { companyDomain: 'firma.test', maxMembers: 10, used: 1, remaining: 9, members: [] };
const admin = { ...subscriber, subscription: { ...paperSubscription, subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: 'business admin' } } };

function show(answer: Answer = () => undefined) {
  return renderPage(<BusinessAdminPage />, {
    session: admin,
    path: '/administrer-bedrift',
    answer: (call) => {
      if (call.method === 'GET' && call.path.startsWith('business/members?')) return json(200, overview);
      if (call.method === 'GET' && call.path.startsWith('business/einvoice?')) return json(200, { einvoice: null });
      return answer(call);
    },
  });
}

afterEach(cleanupPage);

describe('inviting employees', () => {
  const invite = async () => {
    const region = await screen.findByRole('region', { name: 'Inviter ansatte' });
    fireEvent.click(within(region).getByRole('button', { name: 'Send invitasjoner' }));
  };
  const field = () => screen.getByRole('textbox', { name: 'E-postadresser' });

  it('an empty list: the summary takes the focus and its link leads to the list, before any call', async () => {
    const calls = show();
    await invite();
    const summary = await expectFocusedSummary([businessMessages.emptyList]);
    expect(followSummaryLink(summary, businessMessages.emptyList)).toBe(field());
    expect(field().getAttribute('aria-invalid')).toBe('true');
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  }, 20_000);

  it('too many at once (the server says so): said at the list through the summary, and not again as an alert', async () => {
    show((call) => (call.method === 'POST' && call.path.startsWith('business/invitations?') ? refusal(400, businessErrorCodes.listTooLong, businessMessages.listTooLong) : undefined));
    await screen.findByRole('region', { name: 'Inviter ansatte' });
    fireEvent.input(field(), { target: { value: Array.from({ length: BUSINESS_INVITE_BATCH_LIMIT + 1 }, (_, index) => `p${index}@firma.test`).join('\n') } });
    await invite();
    const summary = await expectFocusedSummary([businessMessages.listTooLong]);
    expect(screen.getAllByRole('alert')).toEqual([summary]);
    expect(followSummaryLink(summary, businessMessages.listTooLong)).toBe(field());
  }, 20_000);
});

describe('invoices as EHF', () => {
  it('a wrong organisation number and an empty form: the summary lists each field’s message, in the fields’ order', async () => {
    show();
    const ehf = await screen.findByRole('region', { name: 'Faktura som EHF' });
    const organizationNumber = await within(ehf).findByRole('textbox', { name: 'Organisasjonsnummer' });
    fireEvent.input(organizationNumber, { target: { value: '962 806 113' } });
    fireEvent.input(within(ehf).getByRole('textbox', { name: 'Postnummer' }), { target: { value: '70' } });
    fireEvent.click(within(ehf).getByRole('button', { name: 'Motta fakturaer som EHF' }));
    const summary = await expectFocusedSummary([
      'Organisasjonsnummeret er ikke gyldig. Sjekk at du har skrevet det riktig.',
      'Skriv inn bedriftens navn.',
      'Skriv inn fakturaadressen.',
      'Postnummeret har 4 sifre.',
      'Skriv inn poststedet.',
    ]);
    expect(followSummaryLink(summary, 'Postnummeret har 4 sifre.')).toBe(within(ehf).getByRole('textbox', { name: 'Postnummer' }));
    expect(followSummaryLink(summary, 'Organisasjonsnummeret er ikke gyldig. Sjekk at du har skrevet det riktig.')).toBe(organizationNumber);
    await waitFor(() => expect(organizationNumber.getAttribute('aria-invalid')).toBe('true'));
  }, 20_000);
});
