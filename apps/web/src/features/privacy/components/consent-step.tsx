import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link } from '../../../lib/router/index.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { consentPages, consentPermissionLabels, type ConsentPageNumber, type ConsentPermission, systemClock } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Form } from '../../../components/form.tsx';
import { Page } from '../../../components/page.tsx';
import button from '../../../components/button.module.css';
import form from '../../../components/form.module.css';
import ui from '../../../components/ui.module.css';
import { useTitle } from '../../titles/index.ts';
import { permissionsQueryOptions, privacyKeys, putPermissions } from '../api/privacy.ts';
import { formatDateTime } from '../format.ts';
import { PermissionHistory } from './permission-history.tsx';
import styles from './privacy.module.css';

const stepKeys = { 1: 'consent1', 2: 'consent2', 3: 'consent3' } as const;

/** /samtykke1–3: one group of permissions per page, saved with the time it was given. */
export function ConsentStep({ step }: { step: ConsentPageNumber }) {
  const definition = consentPages[step];
  const permissions: readonly ConsentPermission[] = definition.permissions;
  const title = useTitle();
  const queryClient = useQueryClient();
  const query = useQuery(permissionsQueryOptions());
  const [choices, setChoices] = useState<Partial<Record<ConsentPermission, boolean>>>({});
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const legendId = useId();

  useEffect(() => {
    if (!query.data) return;
    const current = query.data.current;
    setChoices(Object.fromEntries(permissions.map((permission) => [permission, current[permission]?.granted ?? false])));
  }, [query.data, permissions]);

  const save = useMutation({
    mutationFn: () => putPermissions({ permissions: choices, titleCode: title.titleCode }),
    onSuccess: (state) => {
      queryClient.setQueryData(privacyKeys.permissions, state);
      setSavedAt(systemClock().toISOString());
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSavedAt(null);
    save.mutate();
  };

  const history = (query.data?.history ?? []).filter((entry) => permissions.includes(entry.permission));
  const previous = step > 1 ? pathTo(stepKeys[(step - 1) as ConsentPageNumber]) : null;
  const next = step < 3 ? pathTo(stepKeys[(step + 1) as ConsentPageNumber]) : pathTo('privacySettings');

  return (
    <Page title={`${pages[stepKeys[step]].title}: ${definition.heading}`} lead={definition.lead}>
      <nav aria-label="Samtykker" className={styles.steps}>
        <ol>
          {([1, 2, 3] as const).map((number) => (
            <li key={number}>
              <Link to={pathTo(stepKeys[number])} aria-current={number === step ? 'step' : undefined} className={number === step ? styles.currentStep : undefined}>
                {number}. {consentPages[number].heading}
              </Link>
            </li>
          ))}
        </ol>
      </nav>

      {/* Choices that are all allowed: nothing to check, so no useZodForm and no field errors, only the call's (an alert); the shared Form for one pattern (issues 25.12, 26.3). */}
      <Form className={`${form.form} ${ui.panel}`} onSubmit={onSubmit} errors={{}} aria-busy={query.isPending}>
        <fieldset className={form.fieldset} aria-describedby={`${legendId}-hint`}>
          <legend className={form.legend} id={legendId}>
            {definition.heading}
          </legend>
          <p id={`${legendId}-hint`} className={ui.muted}>
            Du kan endre valgene når som helst. Vi lagrer når du gir og trekker tilbake et samtykke.
          </p>
          <div className={form.choices}>
            {permissions.map((permission) => (
              <label key={permission} className={form.choice}>
                <input
                  type="checkbox"
                  name={permission}
                  checked={choices[permission] ?? false}
                  disabled={query.isPending}
                  onChange={(event) => setChoices((current) => ({ ...current, [permission]: event.target.checked }))}
                />
                <span className={form.choiceText}>
                  {consentPermissionLabels[permission].name}
                  <span className={form.choiceHint}>{consentPermissionLabels[permission].description}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <ErrorAlert error={query.error ?? save.error} />
        <div className={form.actions}>
          <button type="submit" className={`${button.button} ${button.primary}`} disabled={save.isPending || query.isPending}>
            {save.isPending ? 'Lagrer …' : 'Lagre samtykker'}
          </button>
        </div>
        <p role="status" className={ui.success} hidden={!savedAt}>
          {savedAt ? `Samtykkene er lagret ${formatDateTime(savedAt)}.` : ''}
        </p>
      </Form>

      <div className={ui.actions}>
        {previous ? (
          <Link className={`${button.button} ${button.secondary}`} to={previous}>
            Forrige
          </Link>
        ) : null}
        <Link className={`${button.button} ${button.secondary}`} to={next}>
          {step < 3 ? 'Neste' : 'Til personverninnstillinger'}
        </Link>
      </div>

      <PermissionHistory history={history} headingId={`historikk-${step}`} />
    </Page>
  );
}
