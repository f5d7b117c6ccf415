import { useId } from 'react';
import { Link, useSearchParams } from '../../../lib/router/index.ts';
import { businessEmailFormSchema, businessErrorCodes, businessMessages, VERIFICATION_CODE_TTL_MINUTES } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import { CodeEntryForm } from '../../../components/code-entry-form.tsx';
import { TextField } from '../../../components/field.tsx';
import { HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { useTitle } from '../../titles/index.ts';
import { useConfirmWorkEmail, useRequestWorkEmailCode } from '../api/verify-work-email.ts';

/** SPEC §2 /bedrift: an employee proves a work address of the company's domain with a code, and gets access under the company's subscription. */
export function BusinessPage() {
  const title = useTitle();
  const [params] = useSearchParams();
  const requestCode = useRequestWorkEmailCode(title.titleCode);
  const confirm = useConfirmWorkEmail(title.titleCode);
  const id = useId();
  const sentTo = requestCode.data?.email;
  const emailId = `${id}-email`;
  const emailForm = useZodForm({
    schema: businessEmailFormSchema,
    defaultValues: { email: params.get('epost') ?? '' },
    fieldIds: { email: emailId },
    // No company has this address's domain: the address is what to fix, so it is said at the field.
    apiErrorField: (error) => (error.code === businessErrorCodes.invalidEmail ? 'email' : null),
  });

  if (confirm.data) {
    return (
      <Page title="Du har tilgang gjennom jobben" lead={`Du leser nå ${title.name} gjennom bedriftsabonnementet for ${requestCode.data?.companyDomain ?? ''}.`}>
        <div className={`${ui.stack} ${ui.narrow}`}>
          <p className={ui.success} role="status">
            Jobb-e-postadressen {sentTo} er bekreftet.
          </p>
          <div className={ui.actions}>
            <HomeLink>Gå til Min Side</HomeLink>
          </div>
        </div>
      </Page>
    );
  }

  return (
    <Page title={pages.business.title} lead="Har arbeidsgiveren din bedriftsabonnement? Bekreft jobb-e-postadressen din, så får du tilgang uten å betale selv.">
      <CodeEntryForm
        errorFallback={businessMessages.error}
        sent={sentTo}
        request={{
          heading: 'Adressen på jobben',
          form: emailForm,
          fields: (
            <TextField
              id={emailId}
              type="email"
              label="Jobb-e-post"
              hint="Adressen i domenet bedriften har avtale for, for eksempel navn@firma.no."
              autoComplete="email"
              error={emailForm.errors.email}
              registration={emailForm.register('email')}
            />
          ),
          onSubmit: ({ email }) => requestCode.mutateAsync(email),
          isPending: requestCode.isPending,
          error: requestCode.error,
        }}
        confirm={{
          sentMessage: (
            <>
              Vi har sendt en kode til {sentTo}. Den virker i {VERIFICATION_CODE_TTL_MINUTES} minutter.
            </>
          ),
          onSubmit: (code) => confirm.mutateAsync({ email: sentTo ?? '', code }),
          isPending: confirm.isPending,
          error: confirm.error,
          submitLabel: 'Bekreft',
        }}
      >
        <p className={ui.muted}>
          <Link to={pathTo('businessTerms')}>Vilkår for bedriftsabonnement</Link>
        </p>
      </CodeEntryForm>
    </Page>
  );
}
