import { useId } from 'react';
import { Link, useNavigate } from '../../../lib/router/index.ts';
import { studentEmailFormSchema, studentResults, VERIFICATION_CODE_TTL_MINUTES, type StudentResultCode } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import { CodeEntryForm } from '../../../components/code-entry-form.tsx';
import { TextField } from '../../../components/field.tsx';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { useTitle } from '../../titles/index.ts';
import { useActivateStudentSubscription, useSendStudentEmail } from '../api/verify-student.ts';
import type { StudentReceiptState } from './student-receipt-page.tsx';

/** SPEC §2 /student-verifisering: the student address gets a code, the code starts the student subscription. */
export function StudentVerificationPage() {
  const title = useTitle();
  const navigate = useNavigate();
  const send = useSendStudentEmail(title.titleCode);
  const activate = useActivateStudentSubscription(title.titleCode);
  const id = useId();
  const sentTo = send.data?.email;
  const emailId = `${id}-email`;
  const emailForm = useZodForm({
    schema: studentEmailFormSchema,
    defaultValues: { email: '' },
    fieldIds: { email: emailId },
    // Not an address at an approved institution: the address is what to fix, so it is said at the field.
    apiErrorField: (error) => (error.code === ('EMAIL_WRONG' satisfies StudentResultCode) ? 'email' : null),
  });

  return (
    <Page title={pages.studentVerification.title} lead="Bruk e-postadressen du har fra universitetet eller høyskolen. Vi sender en kode dit.">
      <CodeEntryForm
        errorFallback={studentResults.ERROR.message}
        sent={sentTo}
        request={{
          heading: 'E-post fra studiestedet',
          form: emailForm,
          fields: (
            <TextField
              id={emailId}
              type="email"
              label="Student-e-post"
              hint="For eksempel navn@stud.ntnu.no eller navn@student.uib.no."
              autoComplete="email"
              error={emailForm.errors.email}
              registration={emailForm.register('email')}
            />
          ),
          onSubmit: ({ email }) => {
            activate.reset();
            return send.mutateAsync(email);
          },
          isPending: send.isPending,
          error: send.error,
        }}
        confirm={{
          sentMessage: (
            <>
              {send.data?.message} Koden virker i {VERIFICATION_CODE_TTL_MINUTES} minutter.
            </>
          ),
          onSubmit: (code) =>
            activate.mutateAsync(
              { email: sentTo ?? '', code },
              { onSuccess: (result) => void navigate(pathTo('studentReceipt'), { state: { message: result.message } satisfies StudentReceiptState }) },
            ),
          isPending: activate.isPending,
          error: activate.error,
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
