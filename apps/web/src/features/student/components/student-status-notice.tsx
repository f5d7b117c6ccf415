import { Link } from '../../../lib/router/index.ts';
import { formatLongDate, isStudentSubscription, type Subscription } from '@minside/domain';
import { pathTo } from '../../../app/paths.ts';
import { useStudentStatus } from '../api/get-status.ts';
import styles from './student.module.css';

/** A student subscriber's student status; not asked for anyone else. */
export function useStudentStatusOf(subscription: Pick<Subscription, 'ariaPlanID'> | null) {
  const student = subscription !== null && isStudentSubscription(subscription);
  const { data } = useStudentStatus(student);
  return student ? data : undefined;
}

/**
 * For the home page: when a student subscriber's student status runs out, and a link to
 * verify again (issue 8: the status is re-verified every year). Renders nothing for
 * anyone else, or before the status has loaded.
 */
export function StudentStatusNotice({ subscription }: { subscription: Pick<Subscription, 'ariaPlanID'> | null }) {
  const status = useStudentStatusOf(subscription);
  if (!status) return null;
  const by = formatLongDate(status.reverifyBy);
  const tone = status.state === 'overdue' ? styles.overdue : status.state === 'dueSoon' ? styles.dueSoon : '';
  return (
    <section className={`${styles.notice} ${tone}`} aria-labelledby="studentstatus">
      <h2 id="studentstatus" className={styles.heading}>
        Studentstatus
      </h2>
      <p className={styles.text}>
        {status.state === 'overdue'
          ? `Studentstatusen din skulle vært bekreftet innen ${by}. Bekreft den nå for å beholde studentprisen.`
          : `Studentstatusen din gjelder til ${by}. Da må du bekrefte på nytt at du fortsatt er student.`}
      </p>
      {status.state !== 'ok' ? (
        <p className={styles.text}>
          <Link to={pathTo('studentVerification')}>Bekreft studentstatusen din</Link>
        </p>
      ) : null}
    </section>
  );
}
