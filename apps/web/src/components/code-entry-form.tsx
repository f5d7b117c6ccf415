import { useEffect, useId, useRef, type ReactNode } from 'react';
import { businessErrorCodes, connectErrorCodes, studentCodeFormSchema, type StudentResultCode } from '@minside/domain';
import type { ApiError } from '../lib/http.ts';
import { useZodForm, type FormValues, type ZodForm } from '../lib/use-zod-form.ts';
import button from './button.module.css';
import { ErrorAlert } from './error-alert.tsx';
import { Field, fieldAria } from './field.tsx';
import { Form } from './form.tsx';
import form from './form.module.css';
import ui from './ui.module.css';

/** The answer of each flow's verify call to a code that is not the one sent. */
const wrongCodeErrors: ReadonlySet<string> = new Set([businessErrorCodes.codeWrong, connectErrorCodes.codeWrong, 'CODE_WRONG' satisfies StudentResultCode]);

/** The server's "the code is wrong" is about the code field: said there (and in the summary), not as an alert. */
const codeFieldOf = (error: ApiError) => (wrongCodeErrors.has(error.code) ? 'code' : null);

/** Step 1: what the user fills in to be sent a code (an e-mail address, or what finds the subscription). */
interface CodeRequestStep<Input extends FormValues, Output> {
  heading: string;
  /**
   * The step's form (useZodForm), which `fields` are registered with: its errors, the page's own
   * checks and a server answer about a field (its `apiErrorField`), go in the step's error summary.
   */
  form: ZodForm<Input, Output>;
  fields: ReactNode;
  /**
   * Sends the step's values (the schema's output): the call's promise (`mutateAsync`). A refusal
   * about a field is put at it; any other is the page's `error`, shown as an alert.
   */
  onSubmit: (values: Output) => Promise<unknown>;
  isPending: boolean;
  /** The failed call (shown as an alert unless it is about a field). */
  error: unknown;
  /** The button before a code is sent (default "Send kode"), after ("Send ny kode"), and while it is sent ("Sender …"). */
  submitLabel?: string;
  resubmitLabel?: string;
  pendingLabel?: string;
}

/** Step 2: the 6-digit code from the e-mail. Its form is this component's: cleared each time a new code is asked for. */
interface CodeConfirmStep {
  /** Default "Skriv inn koden". */
  heading?: string;
  /** Where the code went and how long it works, read out when the step appears. */
  sentMessage: ReactNode;
  /** Sends the code (checked: six digits): the call's promise (`mutateAsync`). The server's "wrong code" is said at the field. */
  onSubmit: (code: string) => Promise<unknown>;
  isPending: boolean;
  /** The failed call (shown as an alert unless it is the wrong code). */
  error: unknown;
  submitLabel: string;
  /** Default "Bekrefter …". */
  pendingLabel?: string;
}

export interface CodeEntryFormProps<Input extends FormValues, Output> {
  request: CodeRequestStep<Input, Output>;
  /** What the code was sent for (the address, the search result): step 2 shows while it is set and takes focus each time it changes. */
  sent: unknown;
  confirm: CodeConfirmStep;
  /** What a failed call says when the API has no Norwegian message of its own. */
  errorFallback?: string;
  /** Under both steps: where to read more, or whom to ask. */
  children?: ReactNode;
}

/**
 * "Send a code to an e-mail, then type the code": the two steps of /bedrift,
 * /student-verifisering and /koble-bruker, each a panel form with its own errors and its own
 * error summary (issue 25.12).
 */
export function CodeEntryForm<Input extends FormValues, Output>({ request, sent, confirm, errorFallback, children }: CodeEntryFormProps<Input, Output>) {
  const id = useId();
  const codeHeading = useRef<HTMLHeadingElement>(null);
  const codeId = `${id}-code`;
  const codeForm = useZodForm({ schema: studentCodeFormSchema, defaultValues: { code: '' }, fieldIds: { code: codeId }, apiErrorField: codeFieldOf });
  const codeError = codeForm.errors.code;

  useEffect(() => {
    if (sent) codeHeading.current?.focus();
  }, [sent]);

  // A new code is asked for: the one typed for the last, and what was said about it, are gone.
  const sendRequest = request.form.handleSubmit((values) => {
    codeForm.reset({ code: '' });
    void request.onSubmit(values).catch(request.form.setApiError);
  });
  const sendCode = codeForm.handleSubmit(({ code }) => void confirm.onSubmit(code).catch(codeForm.setApiError));

  return (
    <div className={`${ui.stack} ${ui.narrow}`}>
      <Form className={`${ui.panel} ${form.form}`} onSubmit={sendRequest} errors={request.form.summary} aria-labelledby={`${id}-step1`}>
        <p className={form.step}>Steg 1 av 2</p>
        <h2 id={`${id}-step1`} className={ui.panelHeading}>
          {request.heading}
        </h2>
        {request.fields}
        <ErrorAlert error={request.form.alertError(request.error)} fallback={errorFallback} />
        <div className={ui.actions}>
          <button type="submit" className={`${button.button} ${sent ? button.secondary : button.primary} ${ui.button}`} disabled={request.isPending}>
            {request.isPending ? (request.pendingLabel ?? 'Sender …') : sent ? (request.resubmitLabel ?? 'Send ny kode') : (request.submitLabel ?? 'Send kode')}
          </button>
        </div>
      </Form>

      {sent ? (
        <Form className={`${ui.panel} ${form.form}`} onSubmit={sendCode} errors={codeForm.summary} aria-labelledby={`${id}-step2`}>
          <p className={form.step}>Steg 2 av 2</p>
          <h2 id={`${id}-step2`} className={ui.panelHeading} tabIndex={-1} ref={codeHeading}>
            {confirm.heading ?? 'Skriv inn koden'}
          </h2>
          <p className={ui.success} role="status">
            {confirm.sentMessage}
          </p>
          <Field
            id={codeId}
            label="Kode"
            error={codeError}
            input={
              <input id={codeId} className={form.input} inputMode="numeric" autoComplete="one-time-code" maxLength={6} {...fieldAria(codeId, { error: codeError })} {...codeForm.register('code')} />
            }
          />
          <ErrorAlert error={codeForm.alertError(confirm.error)} fallback={errorFallback} />
          <div className={ui.actions}>
            <button type="submit" className={`${button.button} ${button.primary} ${ui.button}`} disabled={confirm.isPending}>
              {confirm.isPending ? (confirm.pendingLabel ?? 'Bekrefter …') : confirm.submitLabel}
            </button>
          </div>
        </Form>
      ) : null}
      {children}
    </div>
  );
}
