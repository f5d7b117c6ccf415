import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { einvoiceRecipientBodySchema, type EinvoiceRecipient, type EinvoiceRecipientBody } from '@minside/domain';
import type { z } from 'zod';
import button from '../../../components/button.module.css';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { TextField } from '../../../components/field.tsx';
import { Form } from '../../../components/form.tsx';
import form from '../../../components/form.module.css';
import ui from '../../../components/ui.module.css';
import { useChangeEinvoice, useEinvoice } from '../api/einvoice.ts';

type EinvoiceForm = z.input<typeof einvoiceRecipientBodySchema>;
type EinvoiceValues = z.output<typeof einvoiceRecipientBodySchema>;

/** "962806112" → "962 806 112". */
const grouped = (organizationNumber: string) => organizationNumber.replace(/^(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3');

function EinvoiceFormFields({ current, onDone, titleCode }: { current: EinvoiceRecipient | null; onDone: () => void; titleCode: string }) {
  const change = useChangeEinvoice(titleCode);
  const { register, handleSubmit, formState } = useForm<EinvoiceForm, unknown, EinvoiceValues>({
    resolver: zodResolver(einvoiceRecipientBodySchema),
    defaultValues: {
      organizationNumber: current ? grouped(current.organizationNumber) : '',
      companyName: current?.companyName ?? '',
      street: current?.street ?? '',
      postalCode: current?.postalCode ?? '',
      town: current?.town ?? '',
      reference: current?.reference ?? '',
    },
  });
  const errors = formState.errors;
  const submit = (values: EinvoiceValues) => change.mutate(values satisfies EinvoiceRecipientBody, { onSuccess: onDone });
  return (
    <Form
      className={form.form}
      onSubmit={handleSubmit(submit)}
      errors={{
        'ehf-orgnr': errors.organizationNumber?.message,
        'ehf-name': errors.companyName?.message,
        'ehf-street': errors.street?.message,
        'ehf-postal': errors.postalCode?.message,
        'ehf-town': errors.town?.message,
        'ehf-reference': errors.reference?.message,
      }}
    >
      <div className={form.row}>
        <TextField id="ehf-orgnr" label="Organisasjonsnummer" hint="9 sifre. Fakturaene sendes til bedriften i PEPPOL-nettverket." error={errors.organizationNumber?.message} registration={register('organizationNumber')} />
        <TextField id="ehf-name" label="Bedriftens navn" autoComplete="organization" error={errors.companyName?.message} registration={register('companyName')} />
      </div>
      <TextField id="ehf-street" label="Fakturaadresse" autoComplete="street-address" error={errors.street?.message} registration={register('street')} />
      <div className={form.row}>
        <TextField id="ehf-postal" label="Postnummer" autoComplete="postal-code" error={errors.postalCode?.message} registration={register('postalCode')} />
        <TextField id="ehf-town" label="Poststed" autoComplete="address-level2" error={errors.town?.message} registration={register('town')} />
      </div>
      <TextField id="ehf-reference" label="Deres referanse (valgfritt)" hint="For eksempel et kostnadssted eller navnet på den som skal godkjenne fakturaen." error={errors.reference?.message} registration={register('reference')} />
      <ErrorAlert error={change.error} />
      <div className={ui.actions}>
        <button type="submit" className={`${button.button} ${button.primary} ${ui.button}`} disabled={change.isPending}>
          {change.isPending ? 'Lagrer …' : 'Motta fakturaer som EHF'}
        </button>
        {current ? (
          <button type="button" className={`${button.button} ${button.secondary}`} onClick={onDone}>
            Avbryt
          </button>
        ) : null}
      </div>
    </Form>
  );
}

/**
 * EHF (issue 23): the company can have the subscription's invoices as EHF, the Norwegian
 * e-invoice to businesses, instead of by e-mail. Invoices issued from then on name the company.
 */
export function EinvoiceSection({ titleCode }: { titleCode: string }) {
  const id = useId();
  const einvoice = useEinvoice(titleCode);
  const stop = useChangeEinvoice(titleCode);
  const [editing, setEditing] = useState(false);
  const current = einvoice.data?.einvoice ?? null;
  return (
    <section className={ui.panel} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className={ui.panelHeading}>
        Faktura som EHF
      </h2>
      {einvoice.isPending ? (
        <p className={ui.muted} role="status">
          Henter …
        </p>
      ) : current && !editing ? (
        <>
          <p className={ui.success} role="status">
            Fakturaene sendes som EHF til {current.companyName}, org.nr. {grouped(current.organizationNumber)}.
          </p>
          <p className={ui.text}>
            {current.street}, {current.postalCode} {current.town}
            {current.reference ? ` · Deres referanse: ${current.reference}` : ''}
          </p>
          <ErrorAlert error={stop.error} />
          <div className={ui.actions}>
            <button type="button" className={`${button.button} ${button.secondary}`} onClick={() => setEditing(true)}>
              Endre
            </button>
            <button type="button" className={`${button.button} ${button.secondary}`} disabled={stop.isPending} onClick={() => stop.mutate(null)}>
              {stop.isPending ? 'Stopper …' : 'Stopp EHF'}
            </button>
          </div>
        </>
      ) : (
        <>
          <p className={ui.text}>Vil bedriften ha fakturaene rett inn i regnskapssystemet? Oppgi organisasjonsnummeret, så sender vi nye fakturaer som EHF i stedet for på e-post.</p>
          <EinvoiceFormFields current={current} titleCode={titleCode} onDone={() => setEditing(false)} />
        </>
      )}
    </section>
  );
}
