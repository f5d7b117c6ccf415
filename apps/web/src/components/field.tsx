import type { ReactNode } from 'react';
import type { FieldRegistration } from '../lib/use-zod-form.ts';
import form from './form.module.css';

export interface FieldProps {
  id: string;
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  /** The control, with `id` as its id. */
  input: ReactNode;
  /** Read the error out as soon as it appears (a field that shows up after a choice). */
  announceError?: boolean;
}

/** A labelled control with its hint and its error (ids `{id}-hint` and `{id}-error` for aria-describedby). */
export function Field({ id, label, hint, error, input, announceError = false }: FieldProps) {
  return (
    <div className={form.field}>
      <label htmlFor={id} className={form.label}>
        {label}
      </label>
      {hint ? (
        <span id={`${id}-hint`} className={form.hint}>
          {hint}
        </span>
      ) : null}
      {input}
      {error ? (
        <p id={`${id}-error`} className={form.error} role={announceError ? 'alert' : undefined}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** What a control of a field says about its state: invalid, and which text describes it (the error, else the hint). */
export function fieldAria(id: string, { hint, error }: Pick<FieldProps, 'hint' | 'error'>) {
  return {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : hint ? `${id}-hint` : undefined,
  } as const;
}

export interface TextFieldProps extends Omit<FieldProps, 'input' | 'announceError'> {
  /** The form's `register(name)` (lib/use-zod-form.ts). */
  registration: FieldRegistration;
  type?: 'text' | 'email' | 'tel' | 'date' | 'password';
  autoComplete?: string;
  /** Shown but not editable (a value another party vouches for); the hint says why. */
  readOnly?: boolean;
}

/** A one-line input in a Field, wired to its form (lib/use-zod-form.ts). */
export function TextField({ id, label, hint, error, registration, type = 'text', autoComplete, readOnly = false }: TextFieldProps) {
  return (
    <Field
      id={id}
      label={label}
      hint={hint}
      error={error}
      input={
        <input
          id={id}
          type={type === 'text' ? undefined : type}
          className={form.input}
          autoComplete={autoComplete}
          readOnly={readOnly || undefined}
          {...fieldAria(id, { hint, error })}
          {...registration}
        />
      }
    />
  );
}
