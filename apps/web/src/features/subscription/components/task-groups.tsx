import { Link } from '../../../lib/router/index.ts';
import type { SelfServiceTask } from '@minside/domain';
import ui from '../../../components/ui.module.css';
import { taskGroups, taskLinks } from '../labels.ts';
import styles from './task-groups.module.css';

/**
 * The self-service shortcuts (issue 25.10), grouped by what they are about instead of twelve
 * equal cards. A group without a task that applies is left out (no "Levering" for digital).
 */
export function TaskGroups({ tasks }: { tasks: SelfServiceTask[] }) {
  const groups = taskGroups
    .map((group) => ({ ...group, links: group.tasks.filter((task) => tasks.includes(task)).flatMap((task) => (taskLinks[task] ? [{ task, ...taskLinks[task] }] : [])) }))
    .filter((group) => group.links.length > 0);
  return (
    <section className={styles.shortcuts} aria-labelledby="snarveier">
      <h2 id="snarveier" className={ui.sectionHeading}>
        Snarveier
      </h2>
      <div className={styles.groups}>
        {groups.map((group) => (
          // A heading, not a landmark: five more regions would only crowd a screen reader's list of them.
          <div key={group.id} className={styles.group}>
            <h3 className={styles.groupHeading}>{group.heading}</h3>
            <ul className={styles.links}>
              {group.links.map((link) => (
                <li key={link.task}>
                  <Link className={link.task === 'cancel' ? `${styles.link} ${styles.quiet}` : styles.link} to={link.to}>
                    <span className={styles.label}>{link.label}</span>
                    <span className={styles.text}>{link.text}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </section>
  );
}
