// The one e-mail address rule of the product (issue 20): every address the portal accepts, in
// the browser's forms and at the server's edge, is checked by `isValidEmail`, never by a
// per-form regular expression. No zod here, so start-up code can use it without the schemas.

/**
 * The WHATWG HTML "valid e-mail address" (what `<input type="email">` accepts): an ASCII local
 * part of letters, digits and .!#$%&'*+/=?^_`{|}~- ; a domain of labels of letters, digits and
 * inner hyphens, at most 63 characters each. No quotes, comments, brackets, spaces or control
 * characters, so nothing of it can reach a mail header as anything but an address.
 * https://html.spec.whatwg.org/multipage/input.html#valid-e-mail-address
 */
const whatwgEmail = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** SMTP's limits (RFC 5321 §4.5.3.1): 64 characters before the @, 254 in all. */
const EMAIL_MAX_LENGTH = 254;
const LOCAL_PART_MAX_LENGTH = 64;

/**
 * Whether `value` (already trimmed) is an address the product accepts: the WHATWG rule, plus
 * what mail on the internet needs: a dot in the domain (`ola@localhost` reaches nobody) and
 * SMTP's lengths.
 */
export function isValidEmail(value: string): boolean {
  if (value.length > EMAIL_MAX_LENGTH || !whatwgEmail.test(value)) return false;
  const at = value.lastIndexOf('@');
  return at <= LOCAL_PART_MAX_LENGTH && value.slice(at + 1).includes('.');
}

/** The address as stored, compared and sent to: trimmed and lower-cased. Check it with `isValidEmail` after. */
export function normaliseEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

/** The part after the @, lower-cased ('' when there is none). */
export function emailDomainOf(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : email.slice(at + 1).toLowerCase();
}
