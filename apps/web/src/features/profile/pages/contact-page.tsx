import { useQuery } from '../../../lib/query/index.ts';
import { formatLongDate, formatPhoneNumber, type SharingSummary } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Fact, Facts } from '../../../components/facts.tsx';
import { ButtonLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import { Panel } from '../../../components/panel.tsx';
import ui from '../../../components/ui.module.css';
import { profileQueryOptions } from '../api/profile.ts';
import styles from './contact-page.module.css';

function SharingSection({ sharing }: { sharing: SharingSummary }) {
  const active = sharing.members.filter((member) => member.status === 'active').length;
  return (
    <Panel heading="Familiedeling" headingId="familiedeling">
      {sharing.role === 'owner' ? (
        <>
          <p className={ui.text}>
            Du deler abonnementet med {active} av {sharing.maxMembers} mulige.
            {sharing.members.length > active ? ` ${sharing.members.length - active} invitasjon${sharing.members.length - active === 1 ? '' : 'er'} venter på svar.` : ''}
          </p>
          {sharing.members.length > 0 ? (
            <ul className={styles.members}>
              {sharing.members.map((member) => (
                <li key={member.email} className={styles.member}>
                  <span className={styles.email}>{member.email}</span>
                  <span className={member.status === 'active' ? styles.active : styles.invited}>{member.status === 'active' ? 'Aktiv' : 'Invitasjon sendt'}</span>
                </li>
              ))}
            </ul>
          ) : null}
          <div className={ui.actions}>
            <ButtonLink to={pathTo('familySharing')}>Administrer familiedeling</ButtonLink>
          </div>
        </>
      ) : sharing.role === 'member' ? (
        <p className={ui.text}>Du har tilgang gjennom abonnementet til {sharing.ownerName ?? 'en annen abonnent'}, som deler det med deg.</p>
      ) : (
        <p className={ui.muted}>Abonnementet ditt har ikke familiedeling.</p>
      )}
    </Panel>
  );
}

/** SPEC §2 /kontakt: the contact information, and who the subscription is shared with. */
export function ContactPage() {
  const { data: profile, error, isPending } = useQuery(profileQueryOptions());
  return (
    <Page title={pages.contact.title} lead="Slik når vi deg, og hvem du deler abonnementet med.">
      <div className={`${ui.stack} ${ui.narrow}`}>
        {isPending ? <p className={ui.muted}>Henter kontaktinformasjonen …</p> : null}
        <ErrorAlert error={error} fallback="Vi fikk ikke hentet kontaktinformasjonen akkurat nå." />
        {profile ? (
          <>
            <Panel
              heading="Kontaktinformasjon"
              headingId="kontaktinformasjon"
              actions={
                <ButtonLink to={pathTo('editProfile')} variant="primary">
                  Endre profil
                </ButtonLink>
              }
            >
              <Facts>
                <Fact label="Navn">
                  {profile.givenName} {profile.familyName}
                </Fact>
                <Fact label="E-post" valueClassName={styles.email}>
                  {profile.email}
                </Fact>
                <Fact label="Telefon">{formatPhoneNumber(profile.phoneNumber) || 'Ikke oppgitt'}</Fact>
                <Fact label="Fødselsdato">{profile.birthdate ? formatLongDate(profile.birthdate) : 'Ikke oppgitt'}</Fact>
              </Facts>
              {profile.pendingEmail ? <p className={ui.muted}>Venter på bekreftelse av ny e-postadresse: {profile.pendingEmail}</p> : null}
            </Panel>
            <SharingSection sharing={profile.sharing} />
          </>
        ) : null}
      </div>
    </Page>
  );
}
