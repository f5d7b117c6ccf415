import { MethodVerifyPage } from './method-verify-page.tsx';

/** SPEC §2 /legg-til-betalingskort/verify: back from the provider; the card stored, or `Finner ikke kortdetaljer` (SPEC §8). */
export function AddPaymentCardVerifyPage() {
  return <MethodVerifyPage source="addPaymentCard" headingFor={{ succeeded: 'Betalingskortet er lagt til', cancelled: 'Registreringen ble avbrutt', failed: 'Kortet ble ikke lagt til' }} />;
}
