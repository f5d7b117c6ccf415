import { Link } from '../../../lib/router/index.ts';
import { ContentBlocks } from '../../privacy/index.ts';
import type { FaqTopic } from '../faq.ts';
import styles from './faq-list.module.css';

/** FAQ topics as native disclosures: keyboard and screen-reader support come with <details>. */
export function FaqList({ topics, open = false }: { topics: FaqTopic[]; open?: boolean }) {
  return (
    <div className={styles.topics}>
      {topics.map((topic) => (
        <section key={topic.id} className={styles.topic} aria-labelledby={`faq-${topic.id}`}>
          <h3 id={`faq-${topic.id}`} className={styles.topicHeading}>
            {topic.heading}
          </h3>
          <div className={styles.entries}>
            {topic.entries.map((entry) => (
              <details key={`${entry.id}-${open}`} className={styles.entry} open={open || undefined}>
                <summary className={styles.question}>{entry.question}</summary>
                <div className={styles.answer}>
                  <ContentBlocks blocks={entry.answer} />
                  {entry.link ? (
                    <Link className={styles.answerLink} to={entry.link.to}>
                      {entry.link.label}
                      <span aria-hidden="true"> →</span>
                    </Link>
                  ) : null}
                </div>
              </details>
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}
