import { useMutation, useQuery, useQueryClient } from '../../../lib/query/index.ts';
import { DATA_REQUEST_MAX_DAYS, deletionRequestBodySchema, PAYMENT_HISTORY_RETENTION_YEARS, privacyMessages } from '@minside/domain';
import { gatewayPath, pages } from '../../../app/paths.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Form } from '../../../components/form.tsx';
import { ButtonLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import { Panel } from '../../../components/panel.tsx';
import button from '../../../components/button.module.css';
import form from '../../../components/form.module.css';
import ui from '../../../components/ui.module.css';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { useTitle } from '../../titles/index.ts';
import { deletionQueryOptions, privacyKeys, requestDeletion } from '../api/privacy.ts';
import { formatDateTime } from '../format.ts';
import styles from '../components/privacy.module.css';

/** SPEC §5: both boxes ticked (the domain's body, which the server holds to the same). One message for the two, at their fieldset. */
const deletionFormSchema = deletionRequestBodySchema.refine((body) => body.confirmConsequences && body.confirmPaymentHistory, {
  path: ['confirmConsequences'],
  message: privacyMessages.confirmationRequired,
});

/** SPEC §2 account deletion gateway (/{idp}DeleteGateway); §5: two ticked confirmations. */
export function AccountDeletionPage() {
  const title = useTitle();
  const queryClient = useQueryClient();
  const state = useQuery(deletionQueryOptions());
  const confirmations = useZodForm({
    schema: deletionFormSchema,
    defaultValues: { confirmConsequences: false, confirmPaymentHistory: false },
    fieldIds: { confirmConsequences: 'bekreft' },
  });
  const deletion = useMutation({
    mutationFn: requestDeletion,
    onSuccess: (next) => queryClient.setQueryData(privacyKeys.deletion, next),
  });
  const missing = Boolean(confirmations.errors.confirmConsequences);

  const scheduled = state.data?.request;

  return (
    <Page title={pages.accountDeletion.title} lead="Når kontoen er slettet, kan du ikke logge inn med brukeren din lenger, og abonnementene dine avsluttes.">
      {scheduled ? (
        <Panel heading="Slettingen er bestilt" headingId="sletting-bestilt" accent narrow>
          <p className={ui.text} role="status">
            Du ba om sletting {formatDateTime(scheduled.requestedAt)}. Vi sletter kontoen og sender deg en bekreftelse på e-post. Det tar høyst {DATA_REQUEST_MAX_DAYS} dager.
          </p>
          {scheduled.cancelledSubscriptions.length > 0 ? <p className={ui.text}>Vi har sagt opp: {scheduled.cancelledSubscriptions.join(', ')}.</p> : null}
        </Panel>
      ) : (
        <>
          <Panel heading="Dette skjer når du sletter kontoen" headingId="hva-skjer">
            <ul className={styles.consequences}>
              <li>Aktive abonnementer sies opp, og tilgangen din avsluttes når kontoen slettes.</li>
              <li>Brukeren du logger inn med slettes. Du blir logget ut og kan ikke logge inn igjen med den.</li>
              <li>Navn, kontaktinformasjon, adresser, samtykker og e-post vi har sendt deg slettes.</li>
              <li>Fakturaer og betalinger må vi ta vare på i {PAYMENT_HISTORY_RETENTION_YEARS} år etter bokføringsloven. De beholdes uten navnet ditt.</li>
              <li>Slettingen skjer så snart som mulig, og senest innen {DATA_REQUEST_MAX_DAYS} dager.</li>
            </ul>
            <p className={ui.text}>Vil du ha en kopi av dataene først? Last dem ned før du sletter kontoen.</p>
            <div className={ui.actions}>
              <ButtonLink to={gatewayPath('dataTakeout', title.identityProviderName)}>Last ned dataene dine</ButtonLink>
            </div>
          </Panel>

          <Form className={`${form.form} ${ui.panel}`} onSubmit={confirmations.handleSubmit((body) => deletion.mutate(body))} errors={confirmations.summary} aria-labelledby="bekreft-heading">
            <h2 id="bekreft-heading" className={ui.panelHeading}>
              Bekreft sletting
            </h2>
            <fieldset id="bekreft" className={form.fieldset} aria-describedby={missing ? 'bekreft-feil' : undefined}>
              <legend className={ui.muted}>Kryss av for begge for å slette kontoen.</legend>
              <label className={form.choice}>
                <input type="checkbox" aria-invalid={missing && !confirmations.value('confirmConsequences')} {...confirmations.register('confirmConsequences')} />
                <span className={form.choiceText}>Jeg forstår at kontoen og abonnementene mine avsluttes, og at jeg ikke kan logge inn igjen.</span>
              </label>
              <label className={form.choice}>
                <input type="checkbox" aria-invalid={missing && !confirmations.value('confirmPaymentHistory')} {...confirmations.register('confirmPaymentHistory')} />
                <span className={form.choiceText}>Jeg forstår at fakturaer og betalinger tas vare på i {PAYMENT_HISTORY_RETENTION_YEARS} år, uten navnet mitt.</span>
              </label>
              {missing ? (
                <p id="bekreft-feil" className={form.error}>
                  {privacyMessages.confirmationRequired}
                </p>
              ) : null}
            </fieldset>
            <ErrorAlert error={deletion.error ?? state.error} />
            <div className={form.actions}>
              <button type="submit" className={`${button.button} ${button.primary}`} disabled={deletion.isPending || state.isPending}>
                {deletion.isPending ? 'Sletter …' : 'Slett kontoen min'}
              </button>
            </div>
          </Form>
        </>
      )}
    </Page>
  );
}
