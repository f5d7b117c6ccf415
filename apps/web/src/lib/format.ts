/** A tel: link for a Norwegian phone number as written ("72 50 00 00" → "tel:+4772500000"). */
export function telHref(phoneNumber: string): string {
  const digits = phoneNumber.replace(/[^\d+]/g, '');
  if (digits.startsWith('+')) return `tel:${digits}`;
  if (digits.startsWith('00')) return `tel:+${digits.slice(2)}`;
  return digits.length === 8 ? `tel:+47${digits}` : `tel:${digits}`;
}
