import { consentStore } from '../../../lib/consent/index.ts';

export interface ConsentManagerButtonProps {
  className?: string;
}

/** SPEC §2 footer: the privacy-settings link that opens the consent manager. */
export function ConsentManagerButton({ className }: ConsentManagerButtonProps) {
  return (
    <button type="button" className={className} aria-haspopup="dialog" onClick={() => consentStore.openManager()}>
      Personverninnstillinger
    </button>
  );
}
