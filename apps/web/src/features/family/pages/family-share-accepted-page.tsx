import { useQuery } from '@tanstack/react-query';
import { Link } from '../../../lib/router/index.ts';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { useSessionSubscription } from '../../auth/index.ts';
import { familyQueryOptions } from '../api/family.ts';

/** SPEC §2 /deling-akseptert: the invitation is accepted; whose subscription is shared now. */
export function FamilyShareAcceptedPage() {
  const titleCode = useSessionSubscription()?.titleCode ?? '';
  const { data, error, isPending } = useQuery(familyQueryOptions(titleCode));
  return (
    <Page title={pages.familyShareAccepted.title}>
      <div className={`${ui.stack} ${ui.narrow}`}>
        {isPending ? <p className={ui.muted}>Henter familiedelingen …</p> : null}
        <ErrorAlert error={error} fallback="Vi fikk ikke hentet familiedelingen akkurat nå." />
        {data?.role === 'member' ? (
          <section className={ui.panel} aria-labelledby="velkommen">
            <h2 id="velkommen" className={ui.panelHeading}>
              Velkommen i familiedelingen
            </h2>
            <p className={ui.success} role="status">
              Du deler nå {data.planName} med {data.ownerName}, og har full digital tilgang til {data.titleName}.
            </p>
            <p className={ui.text}>Logg inn med samme bruker på nettsiden og i appen for å lese. Du kan når som helst forlate delingen under Familiedeling.</p>
            <div className={ui.actions}>
              <HomeLink />
              <Link className={`${button.button} ${button.secondary}`} to={pathTo('familySharing')}>
                Familiedeling
              </Link>
            </div>
          </section>
        ) : data ? (
          <section className={ui.panelAccent}>
            <p className={ui.text}>Du deler ikke noe abonnement gjennom familiedeling.</p>
            <div className={ui.actions}>
              <HomeLink variant="secondary" />
            </div>
          </section>
        ) : null}
      </div>
    </Page>
  );
}
