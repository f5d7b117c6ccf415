/** SPEC §8: shown when the current payment method could not be fetched (exactly this text). */
export const paymentMethodFetchError = 'Det oppstod en feil ved henting av betalingsmetode.';
