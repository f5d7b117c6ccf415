import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from '../../../lib/router/index.ts';
import { familyInviteFormSchema, formatLongDate, osloToday, type FamilyInvitation, type FamilyOverview } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { TextField } from '../../../components/field.tsx';
import { Form } from '../../../components/form.tsx';
import form from '../../../components/form.module.css';
import { HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import { Panel } from '../../../components/panel.tsx';
import ui from '../../../components/ui.module.css';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { useIdentity, useSessionAccount, useSessionSubscription } from '../../auth/index.ts';
import { familyQueryOptions, leaveFamily, useInvite, useRemove, useResend } from '../api/family.ts';
import styles from '../family.module.css';

type Owner = Extract<FamilyOverview, { role: 'owner' }>;
type Member = Extract<FamilyOverview, { role: 'member' }>;

const dateOf = (iso: string) => formatLongDate(osloToday(new Date(iso)));

function InviteForm({ titleCode, overview }: { titleCode: string; overview: Owner }) {
  const invite = useInvite(titleCode);
  const inviteForm = useZodForm({ schema: familyInviteFormSchema, defaultValues: { email: '' }, fieldIds: { email: 'invite-email' } });
  const full = overview.remaining === 0;
  return (
    <Form
      className={`${ui.panel} ${form.form}`}
      aria-labelledby="inviter"
      onSubmit={inviteForm.handleSubmit((values) => invite.mutate(values.email, { onSuccess: () => inviteForm.reset({ email: '' }) }))}
      errors={inviteForm.summary}
    >
      <h2 id="inviter" className={ui.panelHeading}>
        Inviter en i husstanden
      </h2>
      <p className={ui.text}>Den du inviterer får en e-post med en lenke. Lenken virker i 7 dager. Det koster ingenting.</p>
      <div className={styles.inviteRow}>
        <TextField id="invite-email" type="email" label="E-postadresse" autoComplete="off" error={inviteForm.errors.email} registration={inviteForm.register('email')} />
        <button type="submit" className={`${button.button} ${button.primary} ${ui.button}`} disabled={invite.isPending}>
          {invite.isPending ? 'Sender …' : 'Send invitasjon'}
        </button>
      </div>
      {full ? <p className={ui.muted}>Alle plassene er i bruk. Trekk tilbake en invitasjon eller fjern et medlem for å invitere flere.</p> : null}
      <div aria-live="polite">
        {invite.data ? (
          <p className={ui.success} role="status">
            {invite.data.message}
          </p>
        ) : null}
      </div>
      <ErrorAlert error={invite.error} />
    </Form>
  );
}

function InvitationItem({ invitation, titleCode, onResult }: { invitation: FamilyInvitation; titleCode: string; onResult: (message: string) => void }) {
  const resend = useResend(titleCode);
  const remove = useRemove(titleCode);
  const [confirming, setConfirming] = useState(false);
  const active = invitation.status === 'active';
  const busy = resend.isPending || remove.isPending;
  const removeNow = () => remove.mutate(invitation.id, { onSuccess: (result) => onResult(result.message), onError: (error) => onResult(error.message) });
  return (
    <li className={styles.item}>
      <div className={styles.who}>
        <span className={styles.email}>{invitation.email}</span>
        <span className={styles.state}>
          <span className={active ? styles.active : styles.invited}>{active ? 'Aktiv' : 'Invitasjon sendt'}</span>
          {' · '}
          {active && invitation.acceptedAt ? `med siden ${dateOf(invitation.acceptedAt)}` : `invitert ${dateOf(invitation.invitedAt)}`}
        </span>
        {/* The link works for whoever opens it (ADR 010): say so when another login took the place. */}
        {active && invitation.acceptedBy ? <span className={styles.state}>Godtatt av {invitation.acceptedBy}</span> : null}
      </div>
      <div className={styles.itemActions}>
        {confirming ? (
          <>
            <span className={ui.small}>Fjerne {invitation.email}?</span>
            <button type="button" className={`${button.button} ${button.small} ${ui.danger}`} disabled={busy} onClick={removeNow}>
              Ja, fjern
            </button>
            <button type="button" className={`${button.button} ${button.small} ${button.secondary}`} onClick={() => setConfirming(false)}>
              Avbryt
            </button>
          </>
        ) : active ? (
          <button type="button" className={`${button.button} ${button.small} ${button.secondary}`} disabled={busy} onClick={() => setConfirming(true)} aria-label={`Fjern ${invitation.email}`}>
            Fjern
          </button>
        ) : (
          <>
            <button
              type="button"
              className={`${button.button} ${button.small} ${button.secondary}`}
              disabled={busy}
              aria-label={`Send invitasjonen til ${invitation.email} på nytt`}
              onClick={() => resend.mutate(invitation.id, { onSuccess: (result) => onResult(result.message), onError: (error) => onResult(error.message) })}
            >
              Send på nytt
            </button>
            <button
              type="button"
              className={`${button.button} ${button.small} ${button.secondary}`}
              disabled={busy}
              aria-label={`Trekk tilbake invitasjonen til ${invitation.email}`}
              onClick={removeNow}
            >
              Trekk tilbake
            </button>
          </>
        )}
      </div>
    </li>
  );
}

function OwnerView({ overview, titleCode }: { overview: Owner; titleCode: string }) {
  const [result, setResult] = useState<string | null>(null);
  return (
    <div className={`${ui.stack} ${ui.narrow}`}>
      <section className={ui.panel} aria-labelledby="plasser">
        <h2 id="plasser" className={ui.panelHeading}>
          {overview.planName}
        </h2>
        <dl className={styles.places}>
          <div className={styles.place}>
            <dt>Maksimalt antall</dt>
            <dd>{overview.maxMembers}</dd>
          </div>
          <div className={styles.place}>
            <dt>Ledige plasser</dt>
            <dd data-testid="remaining">{overview.remaining}</dd>
          </div>
        </dl>
        <p className={ui.muted}>En invitasjon holder av en plass til den blir trukket tilbake.</p>
      </section>
      <InviteForm titleCode={titleCode} overview={overview} />
      <section className={ui.panel} aria-labelledby="invitasjoner">
        <h2 id="invitasjoner" className={ui.panelHeading}>
          Invitasjoner og medlemmer
        </h2>
        <div aria-live="polite">
          {result ? (
            <p className={ui.text} role="status">
              {result}
            </p>
          ) : null}
        </div>
        {overview.invitations.length === 0 ? (
          <p className={ui.muted}>Du deler ikke abonnementet med noen ennå.</p>
        ) : (
          <ul className={styles.list}>
            {overview.invitations.map((invitation) => (
              <InvitationItem key={invitation.id} invitation={invitation} titleCode={titleCode} onResult={setResult} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function MemberView({ overview, titleCode }: { overview: Member; titleCode: string }) {
  const identity = useIdentity();
  const account = useSessionAccount();
  const [confirming, setConfirming] = useState(false);
  const leave = useMutation({
    mutationFn: () => leaveFamily(titleCode),
    // The session now has no subscription here: the guard sends the next navigation onwards.
    onSuccess: (result) => identity.remember({ user: result.user, account: result.account ?? account, subscription: result.subscription }),
  });
  if (leave.data) {
    return (
      <Panel narrow heading="Du har forlatt familiedelingen" headingId="forlatt" actions={<HomeLink />}>
        <p className={ui.success} role="status">
          {leave.data.message}
        </p>
      </Panel>
    );
  }
  return (
    <section className={`${ui.panel} ${ui.narrow}`} aria-labelledby="delt">
      <h2 id="delt" className={ui.panelHeading}>
        Du deler abonnementet til {overview.ownerName}
      </h2>
      <p className={ui.text}>
        Du har digital tilgang til {overview.titleName} gjennom {overview.planName}
        {overview.since ? `, siden ${dateOf(overview.since)}` : ''}. Det er {overview.ownerName} som betaler.
      </p>
      <ErrorAlert error={leave.error} />
      <div className={ui.actions}>
        {confirming ? (
          <>
            <p className={ui.text}>Vil du slutte å dele? Tilgangen din forsvinner med en gang.</p>
            <button type="button" className={`${button.button} ${ui.danger}`} disabled={leave.isPending} onClick={() => leave.mutate()}>
              {leave.isPending ? 'Avslutter …' : 'Ja, forlat familiedelingen'}
            </button>
            <button type="button" className={`${button.button} ${button.secondary}`} onClick={() => setConfirming(false)}>
              Avbryt
            </button>
          </>
        ) : (
          <button type="button" className={`${button.button} ${button.secondary}`} onClick={() => setConfirming(true)}>
            Forlat familiedelingen
          </button>
        )}
      </div>
    </section>
  );
}

/** SPEC §2 /familiedeling: the owner invites household members; a member sees whose subscription they share. */
export function FamilySharingPage() {
  // Held for the page's life: a member who leaves loses the session's subscription, and the
  // page must keep showing the confirmation rather than reload under another key.
  const sessionTitleCode = useSessionSubscription()?.titleCode ?? '';
  const [titleCode, setTitleCode] = useState(sessionTitleCode);
  if (!titleCode && sessionTitleCode) setTitleCode(sessionTitleCode);
  const { data, error, isPending } = useQuery(familyQueryOptions(titleCode));
  return (
    <Page title={pages.familySharing.title} lead="Del den digitale tilgangen gratis med dem du bor sammen med.">
      {isPending ? <p className={ui.muted}>Henter familiedelingen …</p> : null}
      <ErrorAlert error={error} fallback="Vi fikk ikke hentet familiedelingen akkurat nå." />
      {data?.role === 'owner' ? <OwnerView overview={data} titleCode={titleCode} /> : null}
      {data?.role === 'member' ? <MemberView overview={data} titleCode={titleCode} /> : null}
      {data?.role === 'none' ? (
        <section className={`${ui.panelAccent} ${ui.narrow}`}>
          <p className={ui.text}>{data.message}</p>
          <div className={ui.actions}>
            <Link className={`${button.button} ${button.secondary}`} to={pathTo('changeSubscription')}>
              Se abonnement med familiedeling
            </Link>
          </div>
        </section>
      ) : null}
    </Page>
  );
}
