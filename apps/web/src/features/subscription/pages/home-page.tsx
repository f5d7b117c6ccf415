import { useQuery } from '../../../lib/query/index.ts';
import { Link, useLocation } from '../../../lib/router/index.ts';
import { hasAccess, homeAgenda, isBusinessAdmin, tasksFor, userFacingState } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import { telHref } from '../../../lib/format.ts';
import { Page } from '../../../components/page.tsx';
import { HydrateLater } from '../../../lib/hydrate-later.tsx';
import { useSessionUser } from '../../auth/index.ts';
import { DeliveryNoticeBanner, useTodaysDeliveryNotices } from '../../delivery/index.ts';
import { useWithdrawalNotice, WithdrawalNotice } from '../../ordering/index.ts';
import { StudentStatusNotice, useStudentStatusOf } from '../../student/index.ts';
import { useTitle } from '../../titles/index.ts';
import { changeLogQueryOptions } from '../api/get-change-log.ts';
import { homeOverviewQueryOptions } from '../api/get-home-overview.ts';
import { ChangeLog } from '../components/change-log.tsx';
import { AttentionPanel, StatusCards } from '../components/home-agenda.tsx';
import { StatePanel } from '../components/state-panel.tsx';
import { SubscriptionSummary } from '../components/subscription-summary.tsx';
import { TaskGroups } from '../components/task-groups.tsx';
import ui from '../../../components/ui.module.css';
import { useCurrentSubscription, useToday } from '../use-subscription.ts';
import styles from './home-page.module.css';

/** What another page may leave for the home page to say once (accepted offer and the like). */
export interface HomeNotice {
  notice?: string;
}

/**
 * SPEC §2 `/` as the subscriber's "what's going on" (issue 25.10): what needs them, the state
 * of the subscription, where the paper goes and what is paid next; then the tasks, grouped;
 * then help and the change log. The facts beside the subscription come in one call
 * (`GET /api/overview`); until they arrive the rest of the page stands on its own.
 */
export function HomePage() {
  const subscription = useCurrentSubscription();
  const user = useSessionUser();
  const title = useTitle();
  const today = useToday();
  const notice = (useLocation().state as HomeNotice | null)?.notice;
  const ref = subscription ?? { ariaAccountNo: 0, titleCode: '' };
  const { data: overview, isPending } = useQuery({ ...homeOverviewQueryOptions(ref), enabled: subscription !== null });
  // The calls of the parts shown once the overview is here, asked for with it rather than after it:
  // one round trip for the page, not two, in the browser and in the server's render (one pass fewer).
  // Each part reads the same answer from the cache; the withdrawal's, never kept fresh, is handed down.
  useTodaysDeliveryNotices();
  useStudentStatusOf(subscription);
  const withdrawal = useWithdrawalNotice(subscription, today);
  useQuery({ ...changeLogQueryOptions(ref), enabled: subscription !== null });
  if (!subscription) return null;
  const lead = `Hei, ${user?.givenName || user?.displayName || ''}! Her er abonnementet ditt på ${title.name}.`;
  // The facts come first on the page: until they are here (or have failed) nothing below them is
  // shown, so nothing the subscriber is reading or about to press jumps down when they arrive.
  if (isPending) {
    return (
      <Page title={pages.home.title} lead={lead}>
        <p className={ui.muted} role="status">
          Henter oversikten …
        </p>
      </Page>
    );
  }
  const tasks = tasksFor(subscription, today);
  const access = hasAccess(subscription) && userFacingState(subscription, today) !== 'expired';
  const agenda = overview ? homeAgenda(subscription, overview, today) : null;
  const invitationsPath = isBusinessAdmin(subscription) ? pathTo('businessAdmin') : pathTo('familySharing');

  return (
    <Page title={pages.home.title} lead={lead}>
      {notice ? (
        <p className={ui.success} role="status">
          {notice}
        </p>
      ) : null}
      <DeliveryNoticeBanner />
      <StudentStatusNotice subscription={subscription} />
      <div className={styles.now}>
        <StatePanel subscription={subscription} today={today} />
        <WithdrawalNotice status={withdrawal} />
        {agenda ? <AttentionPanel agenda={agenda} invitationsPath={invitationsPath} /> : null}
      </div>

      {/* Below the first screen: hydrated after the rest, each part in a task of its own (lib/hydrate-later.tsx). */}
      <HydrateLater>
        <div className={styles.layout}>
          {overview && agenda ? (
            <div className={styles.facts}>
              <StatusCards overview={overview} agenda={agenda} hasAccess={access} />
            </div>
          ) : null}
          <div className={styles.summary}>
            <SubscriptionSummary subscription={subscription} today={today} />
          </div>
          <div className={styles.tasks}>
            <TaskGroups tasks={tasks} />
          </div>
          <aside className={styles.help} aria-labelledby="trenger-du-hjelp">
            <h2 id="trenger-du-hjelp" className={ui.panelHeading}>
              Trenger du hjelp?
            </h2>
            <p className={ui.muted}>Kundeservice svarer på telefon og e-post på hverdager.</p>
            <p className={ui.text}>
              <a href={telHref(title.customerCenterPhoneNumber)}>{title.customerCenterPhoneNumber}</a>
              <br />
              <a href={`mailto:${title.customerCenterEmail}`}>{title.customerCenterEmail}</a>
            </p>
            <Link to={pathTo('customerService')}>Vanlige spørsmål og svar</Link>
          </aside>
        </div>
      </HydrateLater>

      <HydrateLater>
        <ChangeLog subscription={subscription} />
      </HydrateLater>
    </Page>
  );
}
