import type { ReactNode } from 'react';
import form from '../../../components/form.module.css';

/** A labelled input with its hint and its error (ids `{id}-hint` and `{id}-error` for aria-describedby). */
export function Field({ id, label, hint, error, input }: { id: string; label: string; hint?: string; error?: string | undefined; input: ReactNode }) {
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
        <p id={`${id}-error`} className={form.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
