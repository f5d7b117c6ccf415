// Free text rules (issue 20): what a name, an address line, a complaint or a survey answer may
// contain once it has passed the API's edge. No zod here: `fields.ts` builds the schemas on it,
// and the server uses it for text that does not come through a schema (an issuer's claims).

/**
 * Never in free text: control characters (C0, DEL, C1: CR and LF would split an e-mail header,
 * NUL cannot be stored), unpaired surrogates (cannot be stored either), the line and paragraph
 * separators, and the bidirectional embeddings, overrides and isolates that make a name read
 * differently from what it is.
 */
const forbiddenAnywhere = /[\p{Cs}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
/** One line: every control character. */
const controlSingleLine = /\p{Cc}/u;
/** Several lines (a complaint, a survey answer): line breaks and tabs are text, other controls are not. */
const controlMultiline = /[^\P{Cc}\n\t]/u;

export interface TextShape {
  /** Line breaks and tabs allowed (a complaint, a survey answer); one line otherwise (a name, an address line). */
  multiline?: boolean;
}

/**
 * The stored form: Unicode NFC (a decomposed "å" becomes the one character), CRLF and CR line
 * breaks as LF, runs of spaces on one line as one space, trimmed. Characters are never removed:
 * whether what is left may be stored is `hasForbiddenCharacters`.
 */
export function normaliseText(value: string, shape: TextShape = {}): string {
  const text = value.normalize('NFC').replace(/\r\n?/g, '\n');
  if (shape.multiline) return text.trim();
  return text.replace(/\p{Zs}+/gu, ' ').trim();
}

export function hasForbiddenCharacters(value: string, shape: TextShape = {}): boolean {
  return forbiddenAnywhere.test(value) || (shape.multiline ? controlMultiline : controlSingleLine).test(value);
}

/** Length as people count it: characters (code points), not UTF-16 units. */
export function textLength(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

/**
 * For text from elsewhere that is stored without asking anyone (an identity provider's name
 * claims): normalised, forbidden characters replaced by a space, cut to `max` characters.
 */
export function cleanText(value: string, max: number, shape: TextShape = {}): string {
  const replaced = [...normaliseText(value, shape)].map((character) => (hasForbiddenCharacters(character, shape) ? ' ' : character)).join('');
  return [...normaliseText(replaced, shape)].slice(0, max).join('').trim();
}
