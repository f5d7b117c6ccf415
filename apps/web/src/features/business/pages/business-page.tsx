import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { businessEmailFormSchema, businessErrorCodes, businessMessages, studentCodeFormSchema, VERIFICATION_CODE_TTL_MINUTES } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import { CodeEmailField, CodeEntryForm, wrongCodeMessage } from '../../../components/code-entry-form.tsx';
import { HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { isApiError } from '../../../lib/http.ts';
import { useTitle } from '../../titles/index.ts';
import { useConfirmWorkEmail, useRequestWorkEmailCode } from '../api/verify-work-email.ts';

/** SPEC §2 /bedrift: an employee proves a work address of the company's domain with a code, and gets access under the company's subscription. */
export function BusinessPage() {
  const title = useTitle();
  const [params] = useSearchParams();
  const [email, setEmail] = useState(params.get('epost') ?? '');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const requestCode = useRequestWorkEmailCode(title.titleCode);
  const confirm = useConfirmWorkEmail(title.titleCode);
  const id = useId();
  const sentTo = requestCode.data?.email;
  const emailId = `${id}-email`;
  // No company has this address's domain: the address is what to fix, so it is said at the field.
  const domainRefused = (error: unknown) => isApiError(error) && error.code === businessErrorCodes.invalidEmail;

  const submitEmail = () => {
    const parsed = businessEmailFormSchema.safeParse({ email });
    setEmailError(parsed.success ? null : (parsed.error.issues[0]?.message ?? null));
    if (!parsed.success) return;
    // A new code: what was said about the last one is over.
    setCodeError(null);
    requestCode.mutate(parsed.data.email, { onError: (error) => setEmailError(domainRefused(error) ? error.message : null) });
  };
  const submitCode = () => {
    const parsed = studentCodeFormSchema.safeParse({ code });
    setCodeError(parsed.success ? null : (parsed.error.issues[0]?.message ?? null));
    if (parsed.success && sentTo) confirm.mutate({ email: sentTo, code: parsed.data.code }, { onError: (error) => setCodeError(wrongCodeMessage(error)) });
  };

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
          fields: <CodeEmailField id={emailId} label="Jobb-e-post" hint="Adressen i domenet bedriften har avtale for, for eksempel navn@firma.no." value={email} onChange={setEmail} error={emailError} />,
          fieldErrors: { [emailId]: emailError },
          onSubmit: submitEmail,
          isPending: requestCode.isPending,
          error: domainRefused(requestCode.error) ? null : requestCode.error,
        }}
        confirm={{
          sentMessage: (
            <>
              Vi har sendt en kode til {sentTo}. Den virker i {VERIFICATION_CODE_TTL_MINUTES} minutter.
            </>
          ),
          code,
          onCodeChange: setCode,
          codeError,
          onSubmit: submitCode,
          isPending: confirm.isPending,
          error: wrongCodeMessage(confirm.error) ? null : confirm.error,
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
