import { useEffect, useId, useRef, useState, type FormEvent, type FormHTMLAttributes, type MouseEvent, type ReactNode, type Ref } from 'react';
import form from './form.module.css';

/**
 * A form's field errors by the id of the field's control, or of its fieldset for a group of
 * choices, in the order the fields come. A field without an error is left out or undefined.
 */
type FieldErrors = Record<string, string | null | undefined>;

/** The heading of the error summary (the GOV.UK pattern, in Norwegian). */
const errorSummaryHeading = 'Det er noe som må rettes';

/**
 * Moves to a field from the summary: its control gets the focus, and its question (label or
 * legend) scrolls into view with it, since the question says what is asked.
 */
function focusField(id: string): void {
  const target = document.getElementById(id);
  if (!target) return;
  // A group (fieldset, a date picker's wrapper) gives its first usable control: the chosen
  // radio if there is one, a date's first segment.
  const control = target.matches('input, select, textarea, button')
    ? target
    : target.querySelector<HTMLElement>('input:not([disabled]):checked, input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [role="spinbutton"]:not([aria-disabled="true"])');
  const question = document.querySelector(`label[for="${CSS.escape(id)}"]`) ?? target.closest('fieldset')?.querySelector('legend') ?? null;
  question?.scrollIntoView({ block: 'start' });
  (control ?? target).focus({ preventScroll: question !== null });
}

/** The list of what must be fixed, each a link to its field. `role="alert"`: read out when it takes the focus. */
function ErrorSummary({ errors, ref }: { errors: [string, string][]; ref?: Ref<HTMLDivElement> }) {
  const headingId = useId();
  if (errors.length === 0) return null;
  const follow = (id: string) => (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    focusField(id);
  };
  return (
    <div ref={ref} className={form.summary} role="alert" tabIndex={-1} aria-labelledby={headingId}>
      <h2 id={headingId} className={form.summaryHeading}>
        {errorSummaryHeading}
      </h2>
      <ul className={form.summaryList}>
        {errors.map(([id, message]) => (
          <li key={id}>
            <a href={`#${id}`} onClick={follow(id)}>
              {message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export interface FormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit' | 'noValidate' | 'onInput'> {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** The form's useZodForm's `summary` (lib/use-zod-form.ts, issue 26.3), or `{}` for a form with nothing to check. */
  errors: FieldErrors;
  children: ReactNode;
}

/**
 * Every form of the portal (issue 25.12): the browser's own validation off (the fields show
 * the spec's Norwegian messages, SPEC §5), and when a submit ends in field errors, from the
 * form's own checks or from the server's answer, an error summary at the top takes the focus
 * and links to each field. The summary lists the errors of that submit that are still there: a
 * fixed field drops out, and one that turns invalid while typing is not added (and not read
 * out) before the next submit. The focus moves only in answer to a submit, never while the
 * user types.
 */
export function Form({ onSubmit, errors, children, ...attributes }: FormProps) {
  const summary = useRef<HTMLDivElement>(null);
  /** A submit happened and the user has not touched the form since: errors now are its result. */
  const awaitingResult = useRef(false);
  const [attempt, setAttempt] = useState(0);
  const [shown, setShown] = useState<{ ids: string[] } | null>(null);
  const current = Object.entries(errors).filter((entry): entry is [string, string] => Boolean(entry[1]));
  const signature = current.map(([id, message]) => `${id}\u0000${message}`).join('\u0001');

  useEffect(() => {
    if (!awaitingResult.current || current.length === 0) return;
    awaitingResult.current = false;
    setShown({ ids: current.map(([id]) => id) });
    // `current` is read through `signature`, its value.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [attempt, signature]);

  useEffect(() => {
    if (shown) summary.current?.focus();
  }, [shown]);

  const listed = shown ? current.filter(([id]) => shown.ids.includes(id)) : [];
  return (
    <form
      // Until the scripts have taken a server-rendered page over (docs/decisions/032), Enter submits
      // the form the browser's way: by POST its fields go nowhere (the server answers a page path's
      // POST with 404), where the default GET would put them, a password too, in the address.
      method="post"
      {...attributes}
      noValidate
      onInput={() => {
        awaitingResult.current = false;
      }}
      onSubmit={(event) => {
        // Once the scripts run, the app sends the form; the browser never does.
        event.preventDefault();
        awaitingResult.current = true;
        setAttempt((count) => count + 1);
        onSubmit(event);
      }}
    >
      <ErrorSummary ref={summary} errors={listed} />
      {children}
    </form>
  );
}
