import { useState } from 'react';
import { deliveryChangeTypeLabels, deliveryResumesMessage, type DeliveryChange } from '@minside/domain';
import { isApiError } from '../../../lib/http.ts';
import button from '../../../components/button.module.css';
import { useCancelDeliveryChange } from '../api/cancel-change.ts';
import { addressLines, longDate } from '../format.ts';
import form from '../../../components/form.module.css';
import styles from './change-list.module.css';

const stateLabels: Record<DeliveryChange['state'], string> = {
  upcoming: 'Planlagt',
  started: 'Pågår',
  locked: 'Pågår, kan ikke endres',
};

function period(change: DeliveryChange): string {
  if (change.type === 'PERMANENT') return `Fra og med ${longDate(change.fromDate)}`;
  if (change.toDate === null) return `Fra og med ${longDate(change.fromDate)}, til du gir beskjed`;
  return `${longDate(change.fromDate)} – ${longDate(change.toDate)}`;
}

/** Issue 25.14: when the paper comes (home) again, by the title's print days (the server's `resumesOn`). */
function resumes(change: DeliveryChange): string | null {
  return change.resumesOn && change.type !== 'PERMANENT' ? deliveryResumesMessage(change.type, change.resumesOn) : null;
}

export interface ChangeListProps {
  titleCode: string;
  changes: DeliveryChange[];
  onEdit: (change: DeliveryChange) => void;
  onMessage: (message: string) => void;
}

/** The subscriber's upcoming and running changes, each with what may still be done to it. */
export function ChangeList({ titleCode, changes, onEdit, onMessage }: ChangeListProps) {
  const cancel = useCancelDeliveryChange(titleCode);
  const [confirmingId, setConfirmingId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function remove(change: DeliveryChange) {
    setError(null);
    try {
      const ended = await cancel.mutateAsync(change.id);
      setConfirmingId(null);
      onMessage(ended ? `Endringen er avsluttet.${resumes(ended) ? ` ${resumes(ended)}` : ''}` : 'Endringen er slettet.');
    } catch (caught) {
      setError(isApiError(caught) ? caught.message : 'Noe gikk galt. Prøv igjen.');
    }
  }

  if (changes.length === 0) return <p className={styles.empty}>Du har ingen planlagte endringer.</p>;

  return (
    <>
      {error ? (
        <p className={form.alert} role="alert">
          {error}
        </p>
      ) : null}
      <ul className={styles.list} aria-label="Dine endringer">
        {changes.map((change) => {
          const title = deliveryChangeTypeLabels[change.type];
          return (
            <li key={change.id} className={styles.item}>
              <article className={styles.card} aria-label={`${title}: ${period(change)}`}>
                <div className={styles.top}>
                  <h3 className={styles.title}>{title}</h3>
                  <span className={`${styles.badge} ${styles[change.state]}`}>{stateLabels[change.state]}</span>
                </div>
                <p className={styles.period}>{period(change)}</p>
                {change.issueCount !== null ? <p className={styles.meta}>{change.issueCount === 1 ? '1 avis' : `${change.issueCount} aviser`}</p> : null}
                {resumes(change) ? <p className={styles.meta}>{resumes(change)}</p> : null}
                {change.address ? <p className={styles.meta}>Til {addressLines(change.address).join(', ')}</p> : null}
                {change.state === 'locked' ? null : confirmingId === change.id ? (
                  <div className={styles.actions} role="group" aria-label="Bekreft">
                    <span>{change.state === 'started' ? 'Avslutte endringen så snart som mulig?' : 'Slette endringen?'}</span>
                    <button type="button" className={`${button.button} ${button.primary} ${button.small}`} onClick={() => void remove(change)} disabled={cancel.isPending}>
                      {change.state === 'started' ? 'Ja, avslutt' : 'Ja, slett'}
                    </button>
                    <button type="button" className={`${button.button} ${button.secondary} ${button.small}`} onClick={() => setConfirmingId(null)}>
                      Nei
                    </button>
                  </div>
                ) : (
                  <div className={styles.actions}>
                    {change.type === 'PERMANENT' && change.state !== 'upcoming' ? null : (
                      <button type="button" className={`${button.button} ${button.secondary} ${button.small}`} onClick={() => onEdit(change)}>
                        {change.state === 'started' ? 'Endre sluttdato' : 'Endre'}
                      </button>
                    )}
                    <button type="button" className={`${button.button} ${button.secondary} ${button.small}`} onClick={() => setConfirmingId(change.id)}>
                      {change.state === 'started' ? 'Avslutt nå' : 'Slett'}
                    </button>
                  </div>
                )}
              </article>
            </li>
          );
        })}
      </ul>
    </>
  );
}
