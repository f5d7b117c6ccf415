import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from '../../../lib/router/index.ts';
import { familyMessages, formatLongDate, osloToday } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { ButtonLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import { Panel } from '../../../components/panel.tsx';
import ui from '../../../components/ui.module.css';
import { useIdentity, useSessionUser } from '../../auth/index.ts';
import { acceptInvitation, invitationQueryOptions } from '../api/invitation.ts';

function Refused({ message }: { message: string }) {
  return (
    <Panel accent narrow heading="Invitasjonen kan ikke brukes" headingId="kan-ikke" actions={<ButtonLink to={pathTo('customerService')}>Kontakt kundeservice</ButtonLink>}>
      <p className={ui.alert} role="alert">
        {message}
      </p>
    </Panel>
  );
}

/**
 * SPEC §2 /verifiser-familiemedlem: the link from the invitation e-mail (?token=…). The
 * guard has already signed the user in (or let them sign in) with this URL as the return
 * target; here they see who invites them and accept, or read why the link cannot be used.
 */
export function VerifyFamilyMemberPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const user = useSessionUser();
  const identity = useIdentity();
  const navigate = useNavigate();
  const preview = useQuery({ ...invitationQueryOptions(token), enabled: token !== '' });
  const accept = useMutation({
    mutationFn: () => acceptInvitation(token),
    onSuccess: (result) => {
      identity.remember({ user: result.user, account: result.account, subscription: result.subscription });
      void navigate(pathTo('familyShareAccepted'));
    },
  });

  let content;
  if (token === '') content = <Refused message={familyMessages.outcome.failed} />;
  else if (preview.isPending) content = <p className={ui.muted}>Sjekker invitasjonen …</p>;
  else if (preview.error) content = <Refused message={preview.error.message} />;
  else {
    const invitation = preview.data;
    content = (
      <section className={`${ui.panel} ${ui.narrow}`} aria-labelledby="invitasjon">
        <h2 id="invitasjon" className={ui.panelHeading}>
          {invitation.ownerName} vil dele {invitation.titleName} med deg
        </h2>
        <p className={ui.text}>
          Du får digital tilgang gjennom {invitation.planName}. Det koster deg ingenting, og {invitation.ownerName} kan når som helst avslutte delingen.
        </p>
        <p className={ui.muted}>
          Invitasjonen ble sendt til {invitation.email} og virker til og med {formatLongDate(osloToday(new Date(invitation.expiresAt)))}.{user ? ` Du er logget inn som ${user.email}.` : ''}
        </p>
        <ErrorAlert error={accept.error} />
        <div className={ui.actions}>
          <button type="button" className={`${button.button} ${button.primary} ${ui.button}`} disabled={accept.isPending} onClick={() => accept.mutate()}>
            {accept.isPending ? 'Godtar …' : 'Godta invitasjonen'}
          </button>
        </div>
      </section>
    );
  }
  return (
    <Page title={pages.verifyFamilyMember.title} lead="Bekreft invitasjonen du har fått til å dele et abonnement.">
      {content}
    </Page>
  );
}
