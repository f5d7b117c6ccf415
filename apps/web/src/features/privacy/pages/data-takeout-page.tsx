import { useMutation, useQuery, useQueryClient } from '../../../lib/query/index.ts';
import { DATA_REQUEST_MAX_DAYS, EXPORT_DAILY_LIMIT, EXPORT_RETENTION_DAYS, privacyMessages } from '@minside/domain';
import { pages } from '../../../app/paths.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Page } from '../../../components/page.tsx';
import { Panel } from '../../../components/panel.tsx';
import button from '../../../components/button.module.css';
import ui from '../../../components/ui.module.css';
import { exportsQueryOptions, privacyKeys, requestExport } from '../api/privacy.ts';
import { formatBytes, formatDateTime } from '../format.ts';
import styles from '../components/privacy.module.css';

const statusText = { pending: 'Lages nå', ready: 'Klar til nedlasting', expired: 'Slettet' } as const;

/** SPEC §2 data download gateway (/{idp}TakeoutGateway): ask for a copy, download it when ready. */
export function DataTakeoutPage() {
  const queryClient = useQueryClient();
  const exports = useQuery(exportsQueryOptions());
  const request = useMutation({
    mutationFn: requestExport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: privacyKeys.exports }),
  });
  const latest = request.data;
  // Each copy is mailed, so a few a day (issue 20): the server says how many are left, and refuses the rest with the same words.
  const limitReached = exports.data?.remainingToday === 0;

  return (
    <Page title={pages.dataTakeout.title} lead="Du kan få en kopi av alt vi har lagret om deg på Min Side, i et format som kan leses av maskiner (JSON i en zip-fil).">
      <Panel
        heading="Be om en kopi"
        headingId="be-om-kopi"
        actions={
          <button
            type="button"
            className={`${button.button} ${button.primary}`}
            onClick={() => request.mutate()}
            disabled={request.isPending || limitReached}
            aria-describedby={limitReached ? 'kopi-grense' : undefined}
          >
            {request.isPending ? 'Lager kopien …' : 'Be om kopi av dataene mine'}
          </button>
        }
      >
        <p className={ui.text}>
          Kopien inneholder profilen din, abonnementer, leveringsadresser og endringer, reklamasjoner, fakturaer, betalinger, betalingsmåter (maskert), samtykker, deling med familie eller bedrift,
          e-post vi har sendt deg og endringsloggen.
        </p>
        <p className={ui.text}>
          Som regel er kopien klar med en gang, og vi sender deg en e-post. Det kan ta opptil {DATA_REQUEST_MAX_DAYS} dager. Kopien kan lastes ned i {EXPORT_RETENTION_DAYS} dager, og bare når du er
          logget inn. Du kan be om en kopi høyst {EXPORT_DAILY_LIMIT} ganger per dag.
        </p>
        {limitReached && !request.error ? (
          <p id="kopi-grense" className={ui.alert} role="status">
            {privacyMessages.exportDailyLimit}
          </p>
        ) : null}
      </Panel>
      <ErrorAlert error={request.error ?? exports.error} />
      <p role="status" className={ui.success} hidden={!latest}>
        {latest ? (latest.status === 'ready' ? 'Kopien er klar. Du kan laste den ned nedenfor.' : 'Vi lager kopien og sender deg en e-post når den er klar.') : ''}
      </p>

      <section aria-labelledby="kopier-heading" className={styles.history}>
        <h2 id="kopier-heading" className={ui.sectionHeading}>
          Kopiene dine
        </h2>
        {exports.data && exports.data.exports.length === 0 ? <p className={ui.muted}>Du har ikke bedt om en kopi ennå.</p> : null}
        {exports.data && exports.data.exports.length > 0 ? (
          <ul className={styles.historyList}>
            {exports.data.exports.map((entry) => (
              <li key={entry.id}>
                <time dateTime={entry.requestedAt}>{formatDateTime(entry.requestedAt)}</time>
                <span className={styles.statusLine}>
                  <span>
                    {statusText[entry.status]}
                    {entry.expiresAt ? <span className={ui.muted}> – kan lastes ned til {formatDateTime(entry.expiresAt)}</span> : null}
                  </span>
                  {entry.downloadUrl ? (
                    <a className={`${button.button} ${button.secondary} ${button.small}`} href={entry.downloadUrl} download>
                      Last ned{entry.sizeBytes ? ` (${formatBytes(entry.sizeBytes)})` : ''}
                    </a>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
    </Page>
  );
}
