import { useEffect, useId, useRef, useState, type SyntheticEvent } from 'react';
import { allDenied, allGranted, consentPurposeLabels, optionalConsentPurposes, type ConsentChoices } from '@minside/domain';
import styles from './consent-dialog.module.css';

export interface ConsentDialogProps {
  open: boolean;
  /** The choice that holds now; null before the first (then the dialog cannot be dismissed without one). */
  current: ConsentChoices | null;
  onChoose(choices: ConsentChoices): void;
  onDismiss(): void;
}

/**
 * The built-in consent dialog: a native modal <dialog>, so the page behind is inert and focus
 * stays inside; Esc closes it only once a choice exists. "Godta alle" and "Avslå alle" are
 * equally prominent; the switches pick purpose by purpose for "Lagre valg".
 */
export function ConsentDialog({ open, current, onChoose, onDismiss }: ConsentDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  const textId = useId();
  const [draft, setDraft] = useState<ConsentChoices>(current ?? allDenied);
  const canDismiss = current !== null;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setDraft(current ?? allDenied);
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open, current]);

  const onCancel = (event: SyntheticEvent<HTMLDialogElement>) => {
    event.preventDefault();
    if (canDismiss) onDismiss();
  };

  // A browser may close a modal on repeated Esc whatever we say: without a choice, it comes back.
  const onClose = () => {
    if (open && !canDismiss) dialogRef.current?.showModal();
    else if (open) onDismiss();
  };

  return (
    <dialog ref={dialogRef} className={styles.dialog} aria-labelledby={headingId} aria-describedby={textId} onCancel={onCancel} onClose={onClose}>
      <div className={styles.body}>
        <h2 id={headingId} className={styles.heading}>
          Personverninnstillinger
        </h2>
        <p id={textId} className={styles.text}>
          Vi bruker informasjonskapsler og lignende teknologi for at Min Side skal virke. Med ditt samtykke bruker vi dem også til statistikk, markedsføring og personlig tilpasning. Du kan når som
          helst endre valget under «Personverninnstillinger» nederst på siden.
        </p>

        <fieldset className={styles.purposes}>
          <legend className={styles.legend}>Velg hva du samtykker til</legend>
          <Purpose id="necessary" checked disabled onChange={() => {}} />
          {optionalConsentPurposes.map((purpose) => (
            <Purpose key={purpose} id={purpose} checked={draft[purpose]} onChange={(checked) => setDraft((value) => ({ ...value, [purpose]: checked }))} />
          ))}
        </fieldset>

        <div className={styles.actions}>
          <button type="button" className={styles.choice} onClick={() => onChoose(allGranted)}>
            Godta alle
          </button>
          <button type="button" className={styles.choice} onClick={() => onChoose(allDenied)}>
            Avslå alle
          </button>
          <button type="button" className={styles.save} onClick={() => onChoose(draft)}>
            Lagre valg
          </button>
          {canDismiss ? (
            <button type="button" className={styles.close} onClick={onDismiss}>
              Lukk uten å endre
            </button>
          ) : null}
        </div>
      </div>
    </dialog>
  );
}

interface PurposeProps {
  id: keyof typeof consentPurposeLabels;
  checked: boolean;
  disabled?: boolean;
  onChange(checked: boolean): void;
}

function Purpose({ id, checked, disabled = false, onChange }: PurposeProps) {
  const inputId = useId();
  const descriptionId = useId();
  const { name, description } = consentPurposeLabels[id];
  return (
    <div className={styles.purpose}>
      <div className={styles.purposeRow}>
        <label htmlFor={inputId} className={styles.purposeName}>
          {name}
          {disabled ? <span className={styles.always}> (alltid på)</span> : null}
        </label>
        <input
          id={inputId}
          type="checkbox"
          role="switch"
          className={styles.switch}
          checked={checked}
          disabled={disabled}
          aria-describedby={descriptionId}
          onChange={(event) => onChange(event.target.checked)}
        />
      </div>
      <p id={descriptionId} className={styles.description}>
        {description}
      </p>
    </div>
  );
}
