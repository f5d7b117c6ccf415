import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';
import { businessErrorCodes, connectErrorCodes, type StudentResultCode } from '@minside/domain';
import { isApiError } from '../lib/http.ts';
import button from './button.module.css';
import { ErrorAlert } from './error-alert.tsx';
import { Field, fieldAria } from './field.tsx';
import { Form, type FieldErrors } from './form.tsx';
import form from './form.module.css';
import ui from './ui.module.css';

/** The answer of each flow's verify call to a code that is not the one sent. */
const wrongCodeErrors: ReadonlySet<string> = new Set([businessErrorCodes.codeWrong, connectErrorCodes.codeWrong, 'CODE_WRONG' satisfies StudentResultCode]);

/**
 * The server's "the code is wrong", or null for any other failure. It is about the code field:
 * the page shows it there (`codeError`, set when the call fails and cleared at the next submit,
 * so the focus goes to the error summary), and not as an alert (`error`).
 */
export function wrongCodeMessage(error: unknown): string | null {
  return isApiError(error) && wrongCodeErrors.has(error.code) ? error.message : null;
}

/** Step 1: what the user fills in to be sent a code (an e-mail address, or what finds the subscription). */
interface CodeRequestStep {
  heading: string;
  fields: ReactNode;
  /**
   * The errors of `fields` by the id of each field's control, in the fields' order: the page's
   * own checks, and a server answer about a field. They go in the step's error summary. Keep them
   * in the page's state, cleared at each submit: an answer of the submit before is not this
   * submit's result (the summary takes the focus for what it holds right after a submit).
   */
  fieldErrors: FieldErrors;
  onSubmit: () => void;
  isPending: boolean;
  /** A failed call that is not about a field (shown as an alert). */
  error: unknown;
  /** The button before a code is sent (default "Send kode"), after ("Send ny kode"), and while it is sent ("Sender …"). */
  submitLabel?: string;
  resubmitLabel?: string;
  pendingLabel?: string;
}

/** Step 2: the 6-digit code from the e-mail. The page owns the value, so it can clear it when a new code is asked for. */
interface CodeConfirmStep {
  /** Default "Skriv inn koden". */
  heading?: string;
  /** Where the code went and how long it works, read out when the step appears. */
  sentMessage: ReactNode;
  code: string;
  onCodeChange: (code: string) => void;
  /** The page's own check of the code, or the server's answer that it is wrong (`wrongCodeMessage`). */
  codeError: string | null;
  onSubmit: () => void;
  isPending: boolean;
  /** A failed call that is not about the code field (shown as an alert). */
  error: unknown;
  submitLabel: string;
  /** Default "Bekrefter …". */
  pendingLabel?: string;
}

export interface CodeEntryFormProps {
  request: CodeRequestStep;
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
export function CodeEntryForm({ request, sent, confirm, errorFallback, children }: CodeEntryFormProps) {
  const id = useId();
  const codeHeading = useRef<HTMLHeadingElement>(null);
  const codeId = `${id}-code`;
  const codeError = confirm.codeError ?? undefined;

  useEffect(() => {
    if (sent) codeHeading.current?.focus();
  }, [sent]);

  const submit = (handler: () => void) => (event: FormEvent) => {
    event.preventDefault();
    handler();
  };

  return (
    <div className={`${ui.stack} ${ui.narrow}`}>
      <Form className={`${ui.panel} ${form.form}`} onSubmit={submit(request.onSubmit)} errors={request.fieldErrors} aria-labelledby={`${id}-step1`}>
        <p className={form.step}>Steg 1 av 2</p>
        <h2 id={`${id}-step1`} className={ui.panelHeading}>
          {request.heading}
        </h2>
        {request.fields}
        <ErrorAlert error={request.error} fallback={errorFallback} />
        <div className={ui.actions}>
          <button type="submit" className={`${button.button} ${sent ? button.secondary : button.primary} ${ui.button}`} disabled={request.isPending}>
            {request.isPending ? (request.pendingLabel ?? 'Sender …') : sent ? (request.resubmitLabel ?? 'Send ny kode') : (request.submitLabel ?? 'Send kode')}
          </button>
        </div>
      </Form>

      {sent ? (
        <Form className={`${ui.panel} ${form.form}`} onSubmit={submit(confirm.onSubmit)} errors={{ [codeId]: codeError }} aria-labelledby={`${id}-step2`}>
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
              <input
                id={codeId}
                className={form.input}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                value={confirm.code}
                onChange={(event) => confirm.onCodeChange(event.target.value)}
                {...fieldAria(codeId, { error: codeError })}
              />
            }
          />
          <ErrorAlert error={confirm.error} fallback={errorFallback} />
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

/** The e-mail field of step 1 (work or student address), with its hint and its error. */
export function CodeEmailField({ id, label, hint, value, onChange, error }: { id: string; label: string; hint: string; value: string; onChange: (value: string) => void; error: string | null }) {
  return (
    <Field
      id={id}
      label={label}
      hint={hint}
      error={error ?? undefined}
      input={
        <input
          id={id}
          type="email"
          className={form.input}
          autoComplete="email"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          {...fieldAria(id, { hint, error: error ?? undefined })}
        />
      }
    />
  );
}
