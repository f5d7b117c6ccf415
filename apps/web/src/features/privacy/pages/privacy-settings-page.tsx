import { useEffect, useState, type FormEvent } from 'react';
import { Link } from '../../../lib/router/index.ts';
import { useQuery } from '@tanstack/react-query';
import { consentPages, consentPurposeLabels, optionalConsentPurposes, type ConsentChoices, type ConsentPageNumber } from '@minside/domain';
import { gatewayPath, pages, pathTo } from '../../../app/paths.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Form } from '../../../components/form.tsx';
import { Page } from '../../../components/page.tsx';
import { Panel } from '../../../components/panel.tsx';
import button from '../../../components/button.module.css';
import form from '../../../components/form.module.css';
import ui from '../../../components/ui.module.css';
import { useTitle } from '../../titles/index.ts';
import { permissionsQueryOptions } from '../api/privacy.ts';
import { formatDateTime } from '../format.ts';
import { useConsent, useConsentHistory } from '../hooks/use-consent.ts';
import styles from '../components/privacy.module.css';

const stepKeys = { 1: 'consent1', 2: 'consent2', 3: 'consent3' } as const;
const purposeSummary = (choices: ConsentChoices) => optionalConsentPurposes.map((purpose) => `${consentPurposeLabels[purpose].name}: ${choices[purpose] ? 'ja' : 'nei'}`).join(', ');

/** SPEC §2 /personverninnstillinger (auth, no subscription needed): consents, history and data rights in one place. */
export function PrivacySettingsPage() {
  const title = useTitle();
  const consent = useConsent();
  const history = useConsentHistory();
  const permissions = useQuery(permissionsQueryOptions());
  const [draft, setDraft] = useState<ConsentChoices>({ analytics: false, marketing: false, personalisation: false });
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved' | 'failed'>('idle');

  useEffect(() => {
    if (consent.choices) setDraft(consent.choices);
  }, [consent.choices]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setStatus('saving');
    try {
      await consent.save(draft, 'settings');
      await history.refetch();
      setStatus('saved');
    } catch {
      setStatus('failed');
    }
  };

  return (
    <Page title={pages.privacySettings.title} lead="Her bestemmer du hva vi kan bruke opplysningene dine til, ser hva du har valgt før, og kan laste ned eller slette dataene dine.">
      <div className={styles.grid}>
        {/* Choices that are all allowed: nothing to check, so no useZodForm and no field errors, only the call's (an alert); the shared Form for one pattern (issues 25.12, 26.3). */}
        <Form className={`${form.form} ${ui.panel}`} onSubmit={(event) => void onSubmit(event)} errors={{}} aria-labelledby="cookies-heading">
          <h2 id="cookies-heading" className={ui.panelHeading}>
            Informasjonskapsler og sporing
          </h2>
          <fieldset className={form.fieldset}>
            <legend className={ui.muted}>Gjelder denne nettleseren og brukeren din. {consentPurposeLabels.necessary.description}</legend>
            <div className={form.choices}>
              {optionalConsentPurposes.map((purpose) => (
                <label key={purpose} className={form.choice}>
                  <input type="checkbox" name={purpose} checked={draft[purpose]} onChange={(event) => setDraft((current) => ({ ...current, [purpose]: event.target.checked }))} />
                  <span className={form.choiceText}>
                    {consentPurposeLabels[purpose].name}
                    <span className={form.choiceHint}>{consentPurposeLabels[purpose].description}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          {status === 'failed' ? <ErrorAlert error={new Error('save failed')} fallback="Vi fikk ikke lagret valget. Prøv igjen om litt." /> : null}
          <div className={form.actions}>
            <button type="submit" className={`${button.button} ${button.primary}`} disabled={status === 'saving'}>
              {status === 'saving' ? 'Lagrer …' : 'Lagre valg'}
            </button>
          </div>
          <p role="status" className={ui.success} hidden={status !== 'saved'}>
            {status === 'saved' ? 'Valget ditt er lagret.' : ''}
          </p>
        </Form>

        <Panel heading="Samtykker" headingId="samtykker-heading">
          <p className={ui.text}>Velg hvordan vi kan kontakte deg, tilpasse innholdet og invitere deg til undersøkelser.</p>
          <ul className={styles.linkList}>
            {([1, 2, 3] as const).map((step: ConsentPageNumber) => {
              const asked = consentPages[step].permissions;
              const given = asked.filter((permission) => permissions.data?.current[permission]?.granted).length;
              return (
                <li key={step}>
                  <Link to={pathTo(stepKeys[step])}>{consentPages[step].heading}</Link> <span className={ui.muted}>{permissions.data ? `(${given} av ${asked.length} gitt)` : ''}</span>
                </li>
              );
            })}
          </ul>
        </Panel>

        <Panel heading="Dine data" headingId="dine-data-heading">
          <ul className={styles.linkList}>
            <li>
              <Link to={gatewayPath('dataTakeout', title.identityProviderName)}>Last ned dataene dine</Link>
            </li>
            <li>
              <Link to={gatewayPath('accountDeletion', title.identityProviderName)}>Slett kontoen din</Link>
            </li>
          </ul>
        </Panel>

        <Panel heading="Les mer" headingId="les-mer-heading">
          <ul className={styles.linkList}>
            <li>
              <Link to={pathTo('privacy')}>{pages.privacy.title}</Link>
            </li>
            <li>
              <Link to={pathTo('privacyDetails')}>{pages.privacyDetails.title}</Link>
            </li>
            <li>
              <Link to={pathTo('cookiePolicy')}>{pages.cookiePolicy.title}</Link>
            </li>
            <li>
              <Link to={pathTo('data')}>{pages.data.title}</Link>
            </li>
            <li>
              <Link to={pathTo('terms')}>{pages.terms.title}</Link>
            </li>
          </ul>
        </Panel>
      </div>

      <section aria-labelledby="historikk-heading" className={styles.history}>
        <h2 id="historikk-heading" className={ui.sectionHeading}>
          Historikk for informasjonskapsler og sporing
        </h2>
        <ErrorAlert error={history.error} />
        {history.data && history.data.history.length === 0 ? <p className={ui.muted}>Du har ikke gjort noen valg ennå.</p> : null}
        {history.data && history.data.history.length > 0 ? (
          <ol className={styles.historyList}>
            {history.data.history.map((entry, index) => (
              <li key={`${entry.givenAt}-${index}`}>
                <time dateTime={entry.givenAt}>{formatDateTime(entry.givenAt)}</time>
                <span>{purposeSummary(entry.choices)}</span>
              </li>
            ))}
          </ol>
        ) : null}
      </section>
    </Page>
  );
}
