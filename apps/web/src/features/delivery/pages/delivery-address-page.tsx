import { useId, useMemo, useState, type FormEvent } from 'react';
import { z } from 'zod';
import { deliveryAddressInputSchema, deliveryErrorCodes, requiredMessage, type DeliveryAddressInput } from '@minside/domain';
import { Link } from '../../../lib/router/index.ts';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { Form } from '../../../components/form.tsx';
import { Page } from '../../../components/page.tsx';
import { isApiError } from '../../../lib/http.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { useCancelDeliveryChange } from '../api/cancel-change.ts';
import { useChangeDeliveryAddress } from '../api/change-address.ts';
import { useDeliveryAddress } from '../api/get-address.ts';
import { useDeliveryCalendar } from '../api/get-calendar.ts';
import { AddressFields, addressFieldIds, emptyAddress } from '../components/address-form.tsx';
import { IssueDatePicker } from '../components/issue-date-picker.tsx';
import { LoadState } from '../components/load-state.tsx';
import { PaperOnlyNotice } from '../components/paper-only-notice.tsx';
import { startDayProblem, type StartDayCalendar } from '../date-rules.ts';
import { addressLines, cutoffSentence, dayAndMonth, longDate } from '../format.ts';
import { useDeliveryTitle } from '../use-delivery-title.ts';
import form from '../../../components/form.module.css';
import styles from '../components/section.module.css';
import own from './delivery-address-page.module.css';

/** The page's lead, in every state of the page. */
const lead = 'Se og endre adressen avisen leveres til.';

/**
 * The new address (the domain's schema, SPEC §5 messages) and the day it applies from: none
 * chosen is the next possible day; the day is checked against the title's calendar as fetched.
 */
function moveSchema(calendar: StartDayCalendar | undefined) {
  return deliveryAddressInputSchema.extend({
    fromDate: z
      .string()
      .nullable()
      .transform((chosen, context) => {
        const day = chosen ?? calendar?.nextPossibleDeliveryDay ?? null;
        const problem = startDayProblem(day, calendar, requiredMessage('Gjelder fra'));
        if (problem || !day) {
          context.addIssue({ code: 'custom', message: problem ?? requiredMessage('Gjelder fra') });
          return z.NEVER;
        }
        return day;
      }),
  });
}

/** /leveringsadresse: the current and upcoming delivery address, and a new one from a date (SPEC §3, §5). */
export function DeliveryAddressPage() {
  const page = pages.deliveryAddress;
  const { titleCode, isPaper } = useDeliveryTitle();
  const overview = useDeliveryAddress(titleCode);
  const calendar = useDeliveryCalendar(titleCode);
  const change = useChangeDeliveryAddress(titleCode);
  const cancel = useCancelDeliveryChange(titleCode);
  const ids = { address: useId(), fromDate: useId() };
  const [serverError, setServerError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const publicationDays = useMemo(() => new Set(calendar.data?.publicationDays ?? []), [calendar.data?.publicationDays]);
  const nextPossible = calendar.data?.nextPossibleDeliveryDay;
  const schema = useMemo(() => moveSchema(nextPossible ? { nextPossibleDeliveryDay: nextPossible, publicationDays } : undefined), [nextPossible, publicationDays]);
  const move = useZodForm({
    schema,
    defaultValues: { ...emptyAddress, fromDate: null },
    fieldIds: { ...addressFieldIds(ids.address, ''), fromDate: ids.fromDate },
    // The clock passed the cutoff while the form was open: said at the date.
    apiErrorField: (error) => (error.code === deliveryErrorCodes.cutoffPassed ? 'fromDate' : null),
  });

  if (!isPaper) {
    return (
      <Page title={page.title} lead={lead}>
        <PaperOnlyNotice />
      </Page>
    );
  }

  const fromDate = move.controlled('fromDate');
  const effectiveFrom = fromDate.value ?? nextPossible ?? null;
  const dateError = move.errors.fromDate;

  async function save({ fromDate: day, ...address }: DeliveryAddressInput & { fromDate: string }) {
    try {
      await change.mutateAsync({ fromDate: day, address });
      move.reset({ ...emptyAddress, fromDate: null });
      setMessage(`Den nye adressen er registrert og gjelder fra ${longDate(day)}.`);
    } catch (error) {
      if (!move.setApiError(error)) setServerError(isApiError(error) ? error.message : 'Noe gikk galt. Prøv igjen.');
    }
  }

  function submit(event: FormEvent) {
    setServerError(null);
    setMessage(null);
    void move.handleSubmit(save)(event);
  }

  async function undo(changeId: string) {
    setMessage(null);
    setServerError(null);
    try {
      await cancel.mutateAsync(changeId);
      setMessage('Adresseendringen er slettet.');
    } catch (error) {
      setServerError(isApiError(error) ? error.message : 'Noe gikk galt. Prøv igjen.');
    }
  }

  return (
    <Page title={page.title} lead={lead}>
      {message ? (
        <p className={form.success} role="status">
          {message}
        </p>
      ) : null}
      {overview.data ? (
        <div className={own.addresses}>
          <section className={styles.section} aria-labelledby="current-heading">
            <h2 id="current-heading" className={styles.heading}>
              Nåværende adresse
            </h2>
            <address className={own.address}>
              {addressLines(overview.data.current).map((line) => (
                <span key={line}>{line}</span>
              ))}
            </address>
          </section>
          {overview.data.upcoming.length > 0 ? (
            <section className={styles.section} aria-labelledby="upcoming-heading">
              <h2 id="upcoming-heading" className={styles.heading}>
                Kommende adresse
              </h2>
              <ul className={own.upcoming}>
                {overview.data.upcoming.map((entry) => (
                  <li key={entry.changeId} className={own.upcomingItem}>
                    <p className={own.from}>Fra og med {longDate(entry.fromDate)}</p>
                    <address className={own.address}>
                      {addressLines(entry.address).map((line) => (
                        <span key={line}>{line}</span>
                      ))}
                    </address>
                    <div>
                      <button type="button" className={`${button.button} ${button.secondary} ${button.small}`} onClick={() => void undo(entry.changeId)} disabled={cancel.isPending}>
                        Slett adresseendringen
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </div>
      ) : (
        <LoadState error={overview.error} />
      )}

      <section className={styles.section} aria-labelledby="new-address-heading">
        <h2 id="new-address-heading" className={styles.heading}>
          Endre leveringsadresse
        </h2>
        <p className={styles.muted}>
          Skal avisen bare til en annen adresse en periode, for eksempel i ferien? Bruk <Link to={pathTo('deliveryChange')}>ferie og leveringsendring</Link> i stedet.
        </p>
        <Form className={form.form} onSubmit={submit} errors={move.summary}>
          {serverError ? (
            <p className={form.alert} role="alert">
              {serverError}
            </p>
          ) : null}
          <AddressFields idPrefix={ids.address} field={(name) => ({ registration: move.register(name), error: move.errors[name] })} postalCode={move.value('postalCode')} />
          {calendar.data ? (
            <div className={own.dateRow}>
              <IssueDatePicker
                id={ids.fromDate}
                label="Gjelder fra"
                value={effectiveFrom}
                onChange={fromDate.onChange}
                publicationDays={publicationDays}
                minValue={calendar.data.today}
                maxValue={calendar.data.lastSelectableDay}
                description={`${cutoffSentence(calendar.data.cutoffTime)} Tidligst ${longDate(calendar.data.nextPossibleDeliveryDay)}.`}
                errorMessage={dateError ?? null}
                isRequired
              />
              {dateError && nextPossible && effectiveFrom && effectiveFrom < nextPossible ? (
                <button type="button" className={`${button.button} ${button.secondary} ${button.small}`} onClick={() => fromDate.onChange(nextPossible)}>
                  Bruk {dayAndMonth(nextPossible)}
                </button>
              ) : null}
            </div>
          ) : (
            <LoadState error={calendar.error} />
          )}
          <div className={form.actions}>
            <button type="submit" className={`${button.button} ${button.primary}`} disabled={change.isPending}>
              {change.isPending ? 'Lagrer …' : 'Lagre ny adresse'}
            </button>
          </div>
        </Form>
      </section>
    </Page>
  );
}
