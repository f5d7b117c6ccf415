/** SPEC §5 validation messages, used exactly, by the browser's forms and the server alike. */
export const validationMessages = {
  /** SPEC §5 "E-mail". */
  invalidEmail: 'Vennligst skriv en gyldig e-postadresse',
  /** SPEC §5 "Phone". */
  invalidPhone: 'Telefonnummeret er ugyldig',
} as const;

/** SPEC §5 "Required field": "{info} er påkrevd". */
export function requiredMessage(info: string): string {
  return `${info} er påkrevd`;
}
