import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { studentCodeFormSchema, studentEmailFormSchema, studentResults, VERIFICATION_CODE_TTL_MINUTES, type StudentResultCode } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import { CodeEmailField, CodeEntryForm, wrongCodeMessage } from '../../../components/code-entry-form.tsx';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { isApiError } from '../../../lib/http.ts';
import { useTitle } from '../../titles/index.ts';
import { useActivateStudentSubscription, useSendStudentEmail } from '../api/verify-student.ts';
import type { StudentReceiptState } from './student-receipt-page.tsx';

/** SPEC §2 /student-verifisering: the student address gets a code, the code starts the student subscription. */
export function StudentVerificationPage() {
  const title = useTitle();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const send = useSendStudentEmail(title.titleCode);
  const activate = useActivateStudentSubscription(title.titleCode);
  const id = useId();
  const sentTo = send.data?.email;
  const emailId = `${id}-email`;
  // Not an address at an approved institution: the address is what to fix, so it is said at the field.
  const notStudentEmail = (error: unknown) => isApiError(error) && error.code === ('EMAIL_WRONG' satisfies StudentResultCode);

  const submitEmail = () => {
    const parsed = studentEmailFormSchema.safeParse({ email });
    setEmailError(parsed.success ? null : (parsed.error.issues[0]?.message ?? null));
    if (parsed.success) {
      activate.reset();
      setCode('');
      setCodeError(null);
      send.mutate(parsed.data.email, { onError: (error) => setEmailError(notStudentEmail(error) ? error.message : null) });
    }
  };
  const submitCode = () => {
    const parsed = studentCodeFormSchema.safeParse({ code });
    setCodeError(parsed.success ? null : (parsed.error.issues[0]?.message ?? null));
    if (!parsed.success || !sentTo) return;
    activate.mutate(
      { email: sentTo, code: parsed.data.code },
      {
        onSuccess: (result) => void navigate(pathTo('studentReceipt'), { state: { message: result.message } satisfies StudentReceiptState }),
        onError: (error) => setCodeError(wrongCodeMessage(error)),
      },
    );
  };

  return (
    <Page title={pages.studentVerification.title} lead="Bruk e-postadressen du har fra universitetet eller høyskolen. Vi sender en kode dit.">
      <CodeEntryForm
        errorFallback={studentResults.ERROR.message}
        sent={sentTo}
        request={{
          heading: 'E-post fra studiestedet',
          fields: <CodeEmailField id={emailId} label="Student-e-post" hint="For eksempel navn@stud.ntnu.no eller navn@student.uib.no." value={email} onChange={setEmail} error={emailError} />,
          fieldErrors: { [emailId]: emailError },
          onSubmit: submitEmail,
          isPending: send.isPending,
          error: notStudentEmail(send.error) ? null : send.error,
        }}
        confirm={{
          sentMessage: (
            <>
              {send.data?.message} Koden virker i {VERIFICATION_CODE_TTL_MINUTES} minutter.
            </>
          ),
          code,
          onCodeChange: setCode,
          codeError,
          onSubmit: submitCode,
          isPending: activate.isPending,
          error: wrongCodeMessage(activate.error) ? null : activate.error,
          submitLabel: 'Bekreft og start abonnementet',
        }}
      >
        <p className={ui.muted}>
          <Link to={pathTo('student')}>Les mer om studentabonnementet</Link>
        </p>
      </CodeEntryForm>
    </Page>
  );
}
