import { Link } from '../../../lib/router/index.ts';
import { formatKroner } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { useTitle } from '../../titles/index.ts';
import { useStudentInfo } from '../api/get-info.ts';
import styles from '../components/student.module.css';

/** SPEC §2 /student (public): what the student subscription is, who can have it and how to get it. */
export function StudentPage() {
  const title = useTitle();
  const { data: info } = useStudentInfo(title.titleCode);
  // `*.test` style entries are for demos and tests; visitors see the real institutions.
  const institutions = (info?.domains ?? []).filter((domain) => !domain.startsWith('*'));
  return (
    <Page title={pages.student.title} lead={`Studerer du? Da får du ${title.name} digitalt til studentpris.`}>
      <div className={`${ui.stack} ${ui.narrow}`}>
        <section className={ui.panelAccent} aria-labelledby="studentpris">
          <h2 id="studentpris" className={ui.panelHeading}>
            {info?.planName ?? 'Student digital'}
          </h2>
          {info?.priceOre != null ? (
            <p className={styles.price}>
              {formatKroner(info.priceOre)} <span className={styles.per}>per måned</span>
            </p>
          ) : null}
          <p className={ui.text}>Alle nyheter og plussaker på nett og i appen, og eAvisen hver dag.</p>
          <div className={ui.actions}>
            <Link className={`${button.button} ${button.primary}`} to={pathTo('studentVerification')}>
              Bekreft at du er student
            </Link>
          </div>
        </section>
        <section className={ui.panel} aria-labelledby="slik">
          <h2 id="slik" className={ui.panelHeading}>
            Slik gjør du
          </h2>
          <ol className={styles.steps}>
            <li>Logg inn, eller lag en bruker.</li>
            <li>Skriv inn e-postadressen du har fra studiestedet ditt. Vi sender deg en kode på seks siffer.</li>
            <li>Skriv inn koden. Da starter studentabonnementet med en gang.</li>
          </ol>
          <p className={ui.muted}>Studentstatusen må bekreftes på nytt hvert år. Vi sender deg en påminnelse i god tid.</p>
        </section>
        {institutions.length > 0 ? (
          <section className={ui.panel} aria-labelledby="studiesteder">
            <h2 id="studiesteder" className={ui.panelHeading}>
              Godkjente e-postadresser
            </h2>
            <p className={ui.muted}>Adressen må slutte på en av disse:</p>
            <ul className={styles.domains}>
              {institutions.map((domain) => (
                <li key={domain}>@{domain}</li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </Page>
  );
}
