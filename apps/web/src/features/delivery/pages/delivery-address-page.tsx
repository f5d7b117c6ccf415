import { useId, useMemo, useState, type FormEvent } from 'react';
import { cutoffPassedMessage, deliveryErrorCodes, deliveryMessages } from '@minside/domain';
import { Link } from 'react-router';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { Form } from '../../../components/form.tsx';
import { Page } from '../../../components/page.tsx';
import { isApiError } from '../../../lib/http.ts';
import { useCancelDeliveryChange } from '../api/cancel-change.ts';
import { useChangeDeliveryAddress } from '../api/change-address.ts';
import { useDeliveryAddress } from '../api/get-address.ts';
import { useDeliveryCalendar } from '../api/get-calendar.ts';
import { AddressFields, addressErrorsById, emptyAddress, validateAddress, type AddressErrors, type AddressValues } from '../components/address-form.tsx';
import { IssueDatePicker } from '../components/issue-date-picker.tsx';
import { LoadState } from '../components/load-state.tsx';
import { PaperOnlyNotice } from '../components/paper-only-notice.tsx';
import { addressLines, cutoffSentence, dayAndMonth, longDate } from '../format.ts';
import { useDeliveryTitle } from '../use-delivery-title.ts';
import form from '../../../components/form.module.css';
import styles from '../components/section.module.css';
import own from './delivery-address-page.module.css';

/** /leveringsadresse: the current and upcoming delivery address, and a new one from a date (SPEC §3, §5). */
export function DeliveryAddressPage() {
  const page = pages.deliveryAddress;
  const { titleCode, isPaper } = useDeliveryTitle();
  const overview = useDeliveryAddress(titleCode);
  const calendar = useDeliveryCalendar(titleCode);
  const change = useChangeDeliveryAddress(titleCode);
  const cancel = useCancelDeliveryChange(titleCode);
  const [values, setValues] = useState<AddressValues>(emptyAddress);
  const [errors, setErrors] = useState<AddressErrors>({});
  const ids = { address: useId(), fromDate: useId() };
  const [fromDate, setFromDate] = useState<string | null>(null);
  const [dateError, setDateError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const publicationDays = useMemo(() => new Set(calendar.data?.publicationDays ?? []), [calendar.data?.publicationDays]);

  if (!isPaper) {
    return (
      <Page title={page.title} lead={page.purpose}>
        <PaperOnlyNotice />
      </Page>
    );
  }

  const nextPossible = calendar.data?.nextPossibleDeliveryDay;
  const effectiveFrom = fromDate ?? nextPossible ?? null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setServerError(null);
    setMessage(null);
    const { address, errors: found } = validateAddress(values);
    setErrors(found);
    let dateProblem: string | null = null;
    if (!effectiveFrom) dateProblem = 'Gjelder fra er påkrevd';
    else if (nextPossible && effectiveFrom < nextPossible) dateProblem = cutoffPassedMessage(nextPossible);
    else if (!publicationDays.has(effectiveFrom)) dateProblem = deliveryMessages.notAnIssueDay;
    setDateError(dateProblem);
    if (!address || dateProblem || !effectiveFrom) return;
    try {
      await change.mutateAsync({ fromDate: effectiveFrom, address });
      setValues(emptyAddress);
      setFromDate(null);
      setMessage(`Den nye adressen er registrert og gjelder fra ${longDate(effectiveFrom)}.`);
    } catch (error) {
      if (isApiError(error) && error.code === deliveryErrorCodes.cutoffPassed) setDateError(error.message);
      else setServerError(isApiError(error) ? error.message : 'Noe gikk galt. Prøv igjen.');
    }
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
    <Page title={page.title} lead={page.purpose}>
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
          Skal avisen bare til en annen adresse en periode, for eksempel i ferien? Bruk{' '}
          <Link to={pathTo('deliveryChange')}>ferie og leveringsendring</Link> i stedet.
        </p>
        <Form className={form.form} onSubmit={(event) => void submit(event)} errors={{ ...addressErrorsById(ids.address, errors), [ids.fromDate]: dateError }}>
          {serverError ? (
            <p className={form.alert} role="alert">
              {serverError}
            </p>
          ) : null}
          <AddressFields
            idPrefix={ids.address}
            values={values}
            errors={errors}
            onChange={(name, value) => {
              setValues((current) => ({ ...current, [name]: value }));
              setErrors((current) => ({ ...current, [name]: undefined }));
            }}
          />
          {calendar.data ? (
            <div className={own.dateRow}>
              <IssueDatePicker
                id={ids.fromDate}
                label="Gjelder fra"
                value={effectiveFrom}
                onChange={(value) => {
                  setFromDate(value);
                  setDateError(null);
                }}
                publicationDays={publicationDays}
                minValue={calendar.data.today}
                maxValue={calendar.data.lastSelectableDay}
                description={`${cutoffSentence(calendar.data.cutoffTime)} Tidligst ${longDate(calendar.data.nextPossibleDeliveryDay)}.`}
                errorMessage={dateError}
                isRequired
              />
              {dateError && nextPossible && effectiveFrom && effectiveFrom < nextPossible ? (
                <button
                  type="button"
                  className={`${button.button} ${button.secondary} ${button.small}`}
                  onClick={() => {
                    setFromDate(nextPossible);
                    setDateError(null);
                  }}
                >
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
