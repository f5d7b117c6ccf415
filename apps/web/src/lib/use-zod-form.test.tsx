import { requiredMessage, validationMessages } from '@minside/domain';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorAlert } from '../components/error-alert.tsx';
import { TextField } from '../components/field.tsx';
import { Form } from '../components/form.tsx';
import { expectFocusedSummary, followSummaryLink } from '../test/error-summary.ts';
import { ApiError } from './http.ts';
import { useZodForm } from './use-zod-form.ts';

// The one way to write a form (issue 26.3): a zod schema's messages at the fields and in Form's
// error summary, and a refusal of the API put at the field it is about.

const schema = z.object({
  email: z.string().trim().min(1, requiredMessage('E-post')).email(validationMessages.invalidEmail),
  address: z.object({ street: z.string().trim().min(1, requiredMessage('Adresse')) }),
});
type Values = z.output<typeof schema>;

const taken = new ApiError(409, 'EMAIL_TAKEN', 'E-postadressen er allerede i bruk av en annen bruker.');
const down = new ApiError(503, 'SERVICE_UNAVAILABLE', 'Tjenesten er midlertidig utilgjengelig. Prøv igjen om litt.');

/** A form as a page writes one; `send` stands in for the call (it fails with its error). */
function EmailForm({ send, sent }: { send: (values: Values) => ApiError | null; sent: Values[] }) {
  const [failure, setFailure] = useState<unknown>(null);
  const form = useZodForm({
    schema,
    defaultValues: { email: '', address: { street: '' } },
    // The street comes first on the page: the summary follows the page, not the schema.
    fieldIds: { 'address.street': 'street', email: 'email' },
    apiErrorField: (error) => (error.code === taken.code ? 'email' : null),
  });
  const submit = (values: Values) => {
    sent.push(values);
    const error = send(values);
    setFailure(error);
    if (error) form.setApiError(error);
  };
  return (
    <Form onSubmit={form.handleSubmit(submit)} errors={form.summary}>
      <TextField id="street" label="Adresse" error={form.errors['address.street']} registration={form.register('address.street')} />
      <TextField id="email" type="email" label="E-post" error={form.errors.email} registration={form.register('email')} />
      <ErrorAlert error={form.alertError(failure)} />
      <button type="submit">Lagre</button>
    </Form>
  );
}

function show(send: (values: Values) => ApiError | null = () => null): Values[] {
  const sent: Values[] = [];
  render(<EmailForm send={send} sent={sent} />);
  return sent;
}

const field = (name: string) => screen.getByRole('textbox', { name });
const type = (name: string, value: string) => fireEvent.input(field(name), { target: { value } });
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Lagre' }));

afterEach(cleanup);

describe('useZodForm', () => {
  it("a field error: the schema's message at the field and in the focused summary, in the page's order, each a link to its field", async () => {
    const sent = show();
    type('E-post', 'ola@');
    save();
    const summary = await expectFocusedSummary([requiredMessage('Adresse'), validationMessages.invalidEmail]);
    expect(field('E-post').getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById('email-error')?.textContent).toBe(validationMessages.invalidEmail);
    expect(followSummaryLink(summary, requiredMessage('Adresse'))).toBe(field('Adresse'));
    expect(sent).toEqual([]);
  });

  it('after the submit a field is checked again as it changes: one put right drops out, the rest stay', async () => {
    show();
    save();
    await expectFocusedSummary([requiredMessage('Adresse'), requiredMessage('E-post')]);
    type('Adresse', 'Storgata 1');
    await waitFor(() => expect(document.getElementById('street-error')).toBeNull());
    expect(screen.getAllByRole('link').map((link) => link.textContent)).toEqual([requiredMessage('E-post')]);
    type('E-post', 'ola');
    await waitFor(() => expect(document.getElementById('email-error')?.textContent).toBe(validationMessages.invalidEmail));
  });

  it("sends the schema's output once every field is right", async () => {
    const sent = show();
    type('Adresse', '  Storgata 1 ');
    type('E-post', 'ola@example.no');
    save();
    await waitFor(() => expect(sent).toEqual([{ email: 'ola@example.no', address: { street: 'Storgata 1' } }]));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('is a POST form: submitted before the scripts have taken a server-rendered page over, its fields never go into the address', () => {
    show();
    expect(field('E-post').closest('form')?.getAttribute('method')).toBe('post');
  });

  it('an API error about a field: its message at that field and in the summary, not as an alert', async () => {
    show(() => taken);
    type('Adresse', 'Storgata 1');
    type('E-post', 'ola@example.no');
    save();
    const summary = await expectFocusedSummary([taken.message]);
    expect(document.getElementById('email-error')?.textContent).toBe(taken.message);
    expect(screen.getAllByRole('alert')).toEqual([summary]);
    expect(followSummaryLink(summary, taken.message)).toBe(field('E-post'));
    // Put right, it goes (the schema has nothing against the new address).
    type('E-post', 'kari@example.no');
    await waitFor(() => expect(document.getElementById('email-error')).toBeNull());
  });

  it("sent again: the last answer's summary goes at once, and the new answer's takes the focus", async () => {
    const answers = [taken, new ApiError(409, taken.code, 'E-postadressen er fortsatt i bruk.')];
    show(() => answers.shift() ?? null);
    type('Adresse', 'Storgata 1');
    type('E-post', 'ola@example.no');
    save();
    await expectFocusedSummary([taken.message]);
    save();
    expect(screen.queryByRole('alert', { name: 'Det er noe som må rettes' })).toBeNull();
    await expectFocusedSummary(['E-postadressen er fortsatt i bruk.']);
  });

  it('an API error about no field: an alert, and no summary', async () => {
    show(() => down);
    type('Adresse', 'Storgata 1');
    type('E-post', 'ola@example.no');
    save();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(down.message));
    expect(screen.queryByRole('alert', { name: 'Det er noe som må rettes' })).toBeNull();
  });

  it('a control that keeps its value in props (controlled): its value, its change, checked again after a submit', async () => {
    const daysSchema = z.object({ days: z.array(z.string()).min(1, 'Velg minst én dag') });
    const chosen: string[][] = [];
    function Days() {
      const form = useZodForm({ schema: daysSchema, defaultValues: { days: [] }, fieldIds: { days: 'days' } });
      const days = form.controlled('days');
      return (
        <Form onSubmit={form.handleSubmit((values) => chosen.push(values.days))} errors={form.summary}>
          <fieldset id="days">
            <legend>Dager</legend>
            {['2026-11-25', '2026-11-26'].map((day) => (
              <label key={day}>
                <input type="checkbox" checked={days.value.includes(day)} onChange={(event) => days.onChange(event.target.checked ? [...days.value, day] : days.value.filter((d) => d !== day))} />
                {day}
              </label>
            ))}
            {form.errors.days ? <p id="days-error">{form.errors.days}</p> : null}
          </fieldset>
          <button type="submit">Lagre</button>
        </Form>
      );
    }
    render(<Days />);
    save();
    await expectFocusedSummary(['Velg minst én dag']);
    fireEvent.click(screen.getByRole('checkbox', { name: '2026-11-26' }));
    await waitFor(() => expect(document.getElementById('days-error')).toBeNull());
    save();
    await waitFor(() => expect(chosen).toEqual([['2026-11-26']]));
  });
});
