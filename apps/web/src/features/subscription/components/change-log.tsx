import { useQuery } from '../../../lib/query/index.ts';
import { useState } from 'react';
import { changeActorLabels, formatLongDate, osloToday, type Subscription } from '@minside/domain';
import { changeLogQueryOptions } from '../api/get-change-log.ts';
import button from '../../../components/button.module.css';
import styles from './change-log.module.css';
import ui from '../../../components/ui.module.css';

const SHOWN_AT_FIRST = 5;

/** "Endringslogg": what changed on the subscription, when, and by whom. */
export function ChangeLog({ subscription }: { subscription: Subscription }) {
  const { data: entries, error, isPending } = useQuery(changeLogQueryOptions(subscription));
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? entries : entries?.slice(0, SHOWN_AT_FIRST);
  return (
    <section className={styles.log} aria-labelledby="endringslogg">
      <h2 id="endringslogg" className={ui.sectionHeading}>
        Endringslogg
      </h2>
      {isPending ? <p className={ui.muted}>Henter endringsloggen …</p> : null}
      {error ? (
        <p className={ui.alert} role="alert">
          Vi fikk ikke hentet endringsloggen akkurat nå.
        </p>
      ) : null}
      {entries && entries.length === 0 ? <p className={ui.muted}>Ingen endringer ennå.</p> : null}
      {shown && shown.length > 0 ? (
        <ol className={styles.entries}>
          {shown.map((entry) => (
            <li key={entry.id} className={styles.entry}>
              <div className={styles.meta}>
                <time dateTime={entry.at}>{formatLongDate(osloToday(new Date(entry.at)))}</time>
                <span className={styles.actor}>{changeActorLabels[entry.actor]}</span>
              </div>
              <p className={styles.description}>{entry.description}</p>
            </li>
          ))}
        </ol>
      ) : null}
      {entries && entries.length > SHOWN_AT_FIRST ? (
        <button type="button" className={button.link} aria-expanded={showAll} onClick={() => setShowAll((value) => !value)}>
          {showAll ? 'Vis færre' : `Vis alle ${entries.length} endringene`}
        </button>
      ) : null}
    </section>
  );
}
