import { ConsentStep } from '../components/consent-step.tsx';

/** SPEC §2 /samtykke1. */
export function Consent1Page() {
  return <ConsentStep step={1} />;
}
