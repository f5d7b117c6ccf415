import { MethodVerifyPage } from './method-verify-page.tsx';

/** SPEC §2 /endre-betalingsmetode/verify: back from the provider (card or Vipps agreement), the change confirmed or not. */
export function ChangePaymentMethodVerifyPage() {
  return <MethodVerifyPage source="changePaymentMethod" headingFor={{ succeeded: 'Betalingsmetoden er endret', cancelled: 'Endringen ble avbrutt', failed: 'Endringen gikk ikke gjennom' }} />;
}
