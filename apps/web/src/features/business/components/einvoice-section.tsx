import { useId, useState } from 'react';
import { einvoiceRecipientBodySchema, type EinvoiceRecipient, type EinvoiceRecipientBody } from '@minside/domain';
import button from '../../../components/button.module.css';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { TextField } from '../../../components/field.tsx';
import { Form } from '../../../components/form.tsx';
import form from '../../../components/form.module.css';
import ui from '../../../components/ui.module.css';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { useChangeEinvoice, useEinvoice } from '../api/einvoice.ts';

/** "962806112" → "962 806 112". */
const grouped = (organizationNumber: string) => organizationNumber.replace(/^(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3');

function EinvoiceFormFields({ current, onDone, titleCode }: { current: EinvoiceRecipient | null; onDone: () => void; titleCode: string }) {
  const change = useChangeEinvoice(titleCode);
  const recipient = useZodForm({
    schema: einvoiceRecipientBodySchema,
    defaultValues: {
      organizationNumber: current ? grouped(current.organizationNumber) : '',
      companyName: current?.companyName ?? '',
      street: current?.street ?? '',
      postalCode: current?.postalCode ?? '',
      town: current?.town ?? '',
      reference: current?.reference ?? '',
    },
    fieldIds: { organizationNumber: 'ehf-orgnr', companyName: 'ehf-name', street: 'ehf-street', postalCode: 'ehf-postal', town: 'ehf-town', reference: 'ehf-reference' },
  });
  const errors = recipient.errors;
  const submit = (values: EinvoiceRecipientBody) => change.mutate(values, { onSuccess: onDone });
  return (
    <Form className={form.form} onSubmit={recipient.handleSubmit(submit)} errors={recipient.summary}>
      <div className={form.row}>
        <TextField
          id="ehf-orgnr"
          label="Organisasjonsnummer"
          hint="9 sifre. Fakturaene sendes til bedriften i PEPPOL-nettverket."
          error={errors.organizationNumber}
          registration={recipient.register('organizationNumber')}
        />
        <TextField id="ehf-name" label="Bedriftens navn" autoComplete="organization" error={errors.companyName} registration={recipient.register('companyName')} />
      </div>
      <TextField id="ehf-street" label="Fakturaadresse" autoComplete="street-address" error={errors.street} registration={recipient.register('street')} />
      <div className={form.row}>
        <TextField id="ehf-postal" label="Postnummer" autoComplete="postal-code" error={errors.postalCode} registration={recipient.register('postalCode')} />
        <TextField id="ehf-town" label="Poststed" autoComplete="address-level2" error={errors.town} registration={recipient.register('town')} />
      </div>
      <TextField
        id="ehf-reference"
        label="Deres referanse (valgfritt)"
        hint="For eksempel et kostnadssted eller navnet på den som skal godkjenne fakturaen."
        error={errors.reference}
        registration={recipient.register('reference')}
      />
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
