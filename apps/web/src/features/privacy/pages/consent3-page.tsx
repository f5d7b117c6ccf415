import { ConsentStep } from '../components/consent-step.tsx';

/** SPEC §2 /samtykke3. */
export function Consent3Page() {
  return <ConsentStep step={3} />;
}
