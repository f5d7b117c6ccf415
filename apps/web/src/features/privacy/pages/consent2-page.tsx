import { ConsentStep } from '../components/consent-step.tsx';

/** SPEC §2 /samtykke2. */
export function Consent2Page() {
  return <ConsentStep step={2} />;
}
