import { useLocation } from '../../../lib/router/index.ts';
import { formatKroner, formatLongDate } from '@minside/domain';
import { pages } from '../../../app/paths.ts';
import { HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { useSessionSubscription } from '../../auth/index.ts';
import { useStudentStatus } from '../api/get-status.ts';

/** What the verification page passes on. */
export interface StudentReceiptState {
  message?: string;
}

/** SPEC §2 /student-kvittering: the student subscription is ready, and when the status must be verified again. */
export function StudentReceiptPage() {
  const subscription = useSessionSubscription();
  const { data: status } = useStudentStatus();
  const message = (useLocation().state as StudentReceiptState | null)?.message;
  return (
    <Page title={pages.studentReceipt.title} lead={message ?? 'Studentstatusen din er bekreftet.'}>
      <div className={`${ui.stack} ${ui.narrow}`}>
        <section className={ui.panelAccent} aria-labelledby="kvittering">
          <h2 id="kvittering" className={ui.panelHeading}>
            Kvittering
          </h2>
          <dl className={ui.facts}>
            {subscription ? (
              <>
                <div className={ui.fact}>
                  <dt>Abonnement</dt>
                  <dd>{subscription.planName}</dd>
                </div>
                <div className={ui.fact}>
                  <dt>Pris</dt>
                  <dd>{formatKroner(subscription.priceOre)} per måned</dd>
                </div>
              </>
            ) : null}
            {status ? (
              <>
                <div className={ui.fact}>
                  <dt>Student-e-post</dt>
                  <dd>{status.studentEmail}</dd>
                </div>
                <div className={ui.fact}>
                  <dt>Bekreft på nytt innen</dt>
                  <dd>{formatLongDate(status.reverifyBy)}</dd>
                </div>
              </>
            ) : null}
          </dl>
          <p className={ui.muted}>Fakturaen finner du under Fakturaoversikt. Vi minner deg på å bekrefte studentstatusen en måned før fristen.</p>
          <div className={ui.actions}>
            <HomeLink>Gå til Min Side</HomeLink>
          </div>
        </section>
      </div>
    </Page>
  );
}
