import { consentPermissionLabels, type ConsentPermissionRecord } from '@minside/domain';
import ui from '../../../components/ui.module.css';
import { formatDateTime } from '../format.ts';
import styles from './privacy.module.css';

/** What was given or withdrawn when, newest first (the server keeps every change). */
export function PermissionHistory({ history, headingId, heading = 'Historikk' }: { history: ConsentPermissionRecord[]; headingId: string; heading?: string }) {
  return (
    <section aria-labelledby={headingId} className={styles.history}>
      <h2 id={headingId} className={ui.sectionHeading}>
        {heading}
      </h2>
      {history.length === 0 ? (
        <p className={ui.muted}>Du har ikke gjort noen valg her ennå.</p>
      ) : (
        <ol className={styles.historyList}>
          {history.map((entry, index) => (
            <li key={`${entry.givenAt}-${entry.permission}-${index}`}>
              <time dateTime={entry.givenAt}>{formatDateTime(entry.givenAt)}</time>
              <span>
                {consentPermissionLabels[entry.permission].name}: <strong>{entry.granted ? 'gitt' : 'trukket tilbake'}</strong>
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
