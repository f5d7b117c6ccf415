import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatLongDate, formatPhoneNumber, type SharingSummary } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { isApiError } from '../../../lib/http.ts';
import { profileQueryOptions } from '../api/profile.ts';
import styles from './contact-page.module.css';

function SharingSection({ sharing }: { sharing: SharingSummary }) {
  const active = sharing.members.filter((member) => member.status === 'active').length;
  return (
    <section className={ui.panel} aria-labelledby="familiedeling">
      <h2 id="familiedeling" className={ui.panelHeading}>
        Familiedeling
      </h2>
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
            <Link className={`${button.button} ${button.secondary}`} to={pathTo('familySharing')}>
              Administrer familiedeling
            </Link>
          </div>
        </>
      ) : sharing.role === 'member' ? (
        <p className={ui.text}>Du har tilgang gjennom abonnementet til {sharing.ownerName ?? 'en annen abonnent'}, som deler det med deg.</p>
      ) : (
        <p className={ui.muted}>Abonnementet ditt har ikke familiedeling.</p>
      )}
    </section>
  );
}

/** SPEC §2 /kontakt: the contact information, and who the subscription is shared with. */
export function ContactPage() {
  const { data: profile, error, isPending } = useQuery(profileQueryOptions());
  return (
    <Page title={pages.contact.title} lead="Slik når vi deg, og hvem du deler abonnementet med.">
      <div className={`${ui.stack} ${ui.narrow}`}>
        {isPending ? <p className={ui.muted}>Henter kontaktinformasjonen …</p> : null}
        {error ? (
          <p className={ui.alert} role="alert">
            {isApiError(error) ? error.message : 'Vi fikk ikke hentet kontaktinformasjonen akkurat nå.'}
          </p>
        ) : null}
        {profile ? (
          <>
            <section className={ui.panel} aria-labelledby="kontaktinformasjon">
              <h2 id="kontaktinformasjon" className={ui.panelHeading}>
                Kontaktinformasjon
              </h2>
              <dl className={ui.facts}>
                <div className={ui.fact}>
                  <dt>Navn</dt>
                  <dd>
                    {profile.givenName} {profile.familyName}
                  </dd>
                </div>
                <div className={ui.fact}>
                  <dt>E-post</dt>
                  <dd className={styles.email}>{profile.email}</dd>
                </div>
                <div className={ui.fact}>
                  <dt>Telefon</dt>
                  <dd>{formatPhoneNumber(profile.phoneNumber) || 'Ikke oppgitt'}</dd>
                </div>
                <div className={ui.fact}>
                  <dt>Fødselsdato</dt>
                  <dd>{profile.birthdate ? formatLongDate(profile.birthdate) : 'Ikke oppgitt'}</dd>
                </div>
              </dl>
              {profile.pendingEmail ? <p className={ui.muted}>Venter på bekreftelse av ny e-postadresse: {profile.pendingEmail}</p> : null}
              <div className={ui.actions}>
                <Link className={`${button.button} ${button.primary}`} to={pathTo('editProfile')}>
                  Endre profil
                </Link>
              </div>
            </section>
            <SharingSection sharing={profile.sharing} />
          </>
        ) : null}
      </div>
    </Page>
  );
}
