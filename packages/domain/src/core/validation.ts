/** SPEC §5 validation messages, used exactly, by the browser's forms and the server alike. */
export const validationMessages = {
  /** SPEC §5 "E-mail". */
  invalidEmail: 'Vennligst skriv en gyldig e-postadresse',
  /** SPEC §5 "Phone". */
  invalidPhone: 'Telefonnummeret er ugyldig',
  /** Free text with a control character, a line break where one line is asked for, or a direction override (issue 20). */
  invalidCharacters: 'Teksten inneholder tegn som ikke er tillatt. Fjern linjeskift og spesialtegn og prøv igjen.',
} as const;

/** Free text over its limit (issue 20): "Teksten kan være på høyst {max} tegn". */
export function tooLongMessage(max: number): string {
  return `Teksten kan være på høyst ${max} tegn`;
}

/** SPEC §5 "Required field": "{info} er påkrevd". */
export function requiredMessage(info: string): string {
  return `${info} er påkrevd`;
}
