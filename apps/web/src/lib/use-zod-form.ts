import { zodResolver } from '@hookform/resolvers/zod';
import { useRef, type FormEvent } from 'react';
import { get, useForm, type DefaultValues, type FieldError, type FieldValues, type Path, type PathValue, type UseFormRegisterReturn } from 'react-hook-form';
import type { z } from 'zod';
import { isApiError, type ApiError } from './http.ts';

/**
 * The one way to write a form on the web (issue 26.3): react-hook-form with a zod schema, so the
 * browser shows the same Norwegian messages the server answers with (the domain's schemas, SPEC
 * §5), and every form's errors reach the error summary of `Form` (components/form.tsx, issue
 * 25.12) the same way. This is the only module that imports react-hook-form (lint:
 * eslint.config.js), so a page cannot grow a second way beside it.
 *
 * Each submit starts afresh (the errors of the last one, the server's too, are gone until this
 * one's check and answer). After the first submit a field is checked again as it changes: one
 * put right drops out of the summary at once. The focus after a failed submit is the summary's,
 * not the first field's.
 */

/** What a control spreads onto itself (`register(name)`): name, ref, onChange, onBlur. */
export type FieldRegistration = UseFormRegisterReturn;

/** What a form holds while the user types: an object of fields. */
export type FormValues = FieldValues;

export interface ZodFormOptions<Input extends FieldValues, Output> {
  /**
   * The form's schema: the domain's schema of what is sent, or one built from it for what only
   * the browser checks (a choice not yet made, a date against the calendar it fetched). It may
   * change from render to render (it may close over the page's data): a submit checks with the
   * latest.
   */
  schema: z.ZodType<Output, Input>;
  defaultValues: DefaultValues<Input>;
  /**
   * The id of each field's control (or of the fieldset of a group of choices), in the order the
   * fields come on the page: the summary lists the errors in this order and links there. A path
   * the schema may report an error at and that is not here is not shown.
   */
  fieldIds: Partial<Record<Path<Input>, string>>;
  /**
   * Which field a refusal of the API is about (by its code, or for an API that has no code of
   * its own for it, by its message), or null when it is about none: that one is an alert.
   */
  apiErrorField?: (error: ApiError) => Path<Input> | null | undefined;
}

export interface ZodForm<Input extends FieldValues, Output> {
  register: (name: Path<Input>) => FieldRegistration;
  /**
   * For `Form`'s onSubmit: checks with the schema, then calls `onValid` with its output. `onValid`
   * must not throw (a failed call is the mutation's error, not the submit's).
   */
  handleSubmit: (onValid: (values: Output) => unknown) => (event?: FormEvent) => Promise<unknown>;
  /** Each field's message (of the fields in `fieldIds`), undefined when it has none. */
  errors: Partial<Record<Path<Input>, string>>;
  /** The same by the id of each field's control: `Form`'s `errors`, for the error summary. */
  summary: Record<string, string | undefined>;
  /** The current value of a field (the form renders again when it changes). */
  value: <Name extends Path<Input>>(name: Name) => PathValue<Input, Name>;
  /** Sets a field as the user would (checked again once the form has been submitted). */
  setValue: <Name extends Path<Input>>(name: Name, value: PathValue<Input, Name>) => void;
  /** A control that keeps its value in props (a date picker, a list of checkboxes): its value and its change. */
  controlled: <Name extends Path<Input>>(name: Name) => { value: PathValue<Input, Name>; onChange: (value: PathValue<Input, Name>) => void };
  /** New values, the errors gone (after a save, or a new start). */
  reset: (values?: DefaultValues<Input>) => void;
  /** The user has changed something since the form was (re)set. */
  isDirty: boolean;
  /**
   * Puts a failed call's refusal at its field (and in the summary) when `apiErrorField` names one.
   * Answers whether it did. For a mutation's `onError`.
   */
  setApiError: (error: unknown) => boolean;
  /** The failure to show as an alert: `error`, or null when it is about a field (it is shown there). */
  alertError: (error: unknown) => unknown;
}

export function useZodForm<Input extends FieldValues, Output = Input>({ schema, defaultValues, fieldIds, apiErrorField }: ZodFormOptions<Input, Output>): ZodForm<Input, Output> {
  const latestSchema = useRef(schema);
  latestSchema.current = schema;
  const form = useForm<Input, unknown, Output>({
    resolver: (values, context, options) => zodResolver(latestSchema.current)(values, context, options),
    defaultValues,
    // Form moves the focus to the error summary; react-hook-form would move it to the first field
    // in error as well, and a moment later (a timer) again, taking it from the summary.
    shouldFocusError: false,
  });
  const { errors: found, isSubmitted, isDirty } = form.formState;
  const names = Object.keys(fieldIds) as Path<Input>[];
  const messageOf = (name: Path<Input>) => (get(found, name) as FieldError | undefined)?.message;
  const errors: Partial<Record<Path<Input>, string>> = {};
  const summary: Record<string, string | undefined> = {};
  for (const name of names) {
    const message = messageOf(name);
    errors[name] = message;
    summary[fieldIds[name] ?? name] = message;
  }
  const fieldOf = (error: unknown) => (isApiError(error) ? (apiErrorField?.(error) ?? null) : null);
  const setValue = <Name extends Path<Input>>(name: Name, value: PathValue<Input, Name>) => form.setValue(name, value, { shouldDirty: true, shouldValidate: isSubmitted });

  return {
    register: (name) => form.register(name),
    handleSubmit: (onValid) => (event) => {
      // What the last submit found is over, the server's answers with it: the summary waits for
      // this submit's check and answer (Form takes the errors after a submit as its result).
      form.clearErrors();
      return form.handleSubmit((values) => onValid(values))(event);
    },
    errors,
    summary,
    value: (name) => form.watch(name),
    setValue,
    controlled: (name) => ({ value: form.watch(name), onChange: (value) => setValue(name, value) }),
    reset: (values) => form.reset(values),
    isDirty,
    setApiError(error) {
      const name = fieldOf(error);
      if (name === null || !isApiError(error)) return false;
      form.setError(name, { type: 'server', message: error.message });
      return true;
    },
    alertError: (error) => (fieldOf(error) === null ? error : null),
  };
}
