import { z } from 'zod';
import { isValidEmail } from './email.ts';
import { hasForbiddenCharacters, normaliseText, textLength } from './text.ts';
import { requiredMessage, tooLongMessage, validationMessages } from './validation.ts';

// The zod building blocks of every form and request body that takes an e-mail address or free
// text (issue 20): one rule each, used by every schema, so the browser's forms and the server's
// edge check and normalise the same way and answer the same Norwegian message.

/**
 * A required e-mail address (trimmed, checked by `isValidEmail`). An empty field gets only the
 * `required` message, a malformed one only the `invalid` one.
 */
export function emailAddress(messages: { required?: string; invalid?: string } = {}) {
  const invalid = messages.invalid ?? validationMessages.invalidEmail;
  return z
    .string()
    .trim()
    .min(1, messages.required ?? requiredMessage('E-post'))
    .refine((value) => value === '' || isValidEmail(value), invalid);
}

export interface FreeTextOptions {
  /** At most this many characters (code points, after normalising). */
  max: number;
  /** Line breaks and tabs allowed; one line otherwise. */
  multiline?: boolean;
  /** The message for an empty value; without it an empty value is allowed. */
  required?: string;
  /** The message over `max`; default "Teksten kan være på høyst {max} tegn". */
  tooLong?: string;
}

/** Every free-text schema, with its limit: the server's route-table check reads it (test/input-rules.test.ts). */
export const freeTextRegistry = z.registry<{ max: number; multiline: boolean }>();

/**
 * Free text at the API's edge (issue 20), the one way: normalised (`normaliseText`: NFC, line
 * breaks as LF, spaces collapsed on one line, trimmed), refused with a Norwegian message when it
 * has a control character (CR/LF on one line), a direction override, or more than `max`
 * characters. Names, address lines, complaints and survey answers all use it.
 */
export function freeText(options: FreeTextOptions) {
  const shape = { multiline: options.multiline ?? false };
  let schema = z
    .string()
    .overwrite((value) => normaliseText(value, shape))
    .refine((value) => !hasForbiddenCharacters(value, shape), { message: validationMessages.invalidCharacters, abort: true })
    .refine((value) => textLength(value) <= options.max, { message: options.tooLong ?? tooLongMessage(options.max), abort: true });
  if (options.required !== undefined) schema = schema.min(1, options.required);
  schema.register(freeTextRegistry, { max: options.max, multiline: shape.multiline });
  return schema;
}

/** Optional free text: empty, missing or null all become null. */
export function optionalFreeText(options: Omit<FreeTextOptions, 'required'>) {
  return freeText(options)
    .nullish()
    .transform((value) => (value ? value : null));
}

/** A person's given or family name: one line of free text, at most 100 characters. */
export function personName(messages: { required?: string; tooLong?: string } = {}) {
  return freeText({ max: PERSON_NAME_MAX_LENGTH, ...messages });
}

export const PERSON_NAME_MAX_LENGTH = 100;
