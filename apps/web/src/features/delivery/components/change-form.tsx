import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '../../../lib/query/index.ts';
import { z } from 'zod';
import {
  addDays,
  calendarOfDays,
  deliveryAddressInputSchema,
  deliveryChangeTypeLabels,
  deliveryChangeTypes,
  deliveryErrorCodes,
  deliveryMessages,
  deliveryResumesMessage,
  deliveryResumesOn,
  formatKroner,
  requiredMessage,
  type DeliveryCalendar,
  type DeliveryChange,
  type DeliveryChangeType,
} from '@minside/domain';
import { isApiError } from '../../../lib/http.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import button from '../../../components/button.module.css';
import { Form } from '../../../components/form.tsx';
import { deliveryKeys } from '../api/keys.ts';
import { useSaveDeliveryChange } from '../api/save-change.ts';
import { usePostalCodeTown } from '../api/lookup-postal-code.ts';
import { startDayProblem, type StartDayCalendar } from '../date-rules.ts';
import { addressLines, dayAndMonth, longDate, shortIssueDate } from '../format.ts';
import { AddressFields, addressFieldIds, addressInputOf, addressValuesOf } from './address-form.tsx';
import { IssueDatePicker } from './issue-date-picker.tsx';
import styles from '../../../components/form.module.css';
import own from './change-form.module.css';

const typeHints: Record<DeliveryChangeType, string> = {
  STOP: 'Avisen stopper i perioden, for eksempel i ferien.',
  TRANSFER: 'Avisen sendes til en annen adresse en periode, for eksempel til hytta.',
  PERMANENT: 'Du flytter, og avisen skal leveres til den nye adressen fra en dato.',
};

/** Open-ended changes show this many weeks of issues before confirming. */
const OPEN_END_PREVIEW_DAYS = 28;

export interface ChangeFormProps {
  titleCode: string;
  calendar: DeliveryCalendar;
  /** Set when changing an existing change. */
  editing?: DeliveryChange;
  onDone: (message: string) => void;
  onCancel?: () => void;
}

/** What the form holds while the user types. */
const changeFields = z.object({
  type: z.enum(deliveryChangeTypes),
  fromDate: z.string().nullable(),
  toDate: z.string().nullable(),
  openEnd: z.boolean(),
  address: z.object({ name: z.string(), coName: z.string(), street: z.string(), streetNumber: z.string(), apartment: z.string(), floor: z.string(), postalCode: z.string() }),
});

/**
 * What is checked and then reviewed: the end only when the change has one, the address (the
 * domain's schema, SPEC §5) only where the paper goes elsewhere and the change has not begun; the
 * dates against the title's calendar as fetched. A change that has begun keeps its start.
 */
function changeSchema({ calendar, started, earliestEnd }: { calendar: StartDayCalendar; started: boolean; earliestEnd: string | null }) {
  const reviewed = z
    .object({ type: z.enum(deliveryChangeTypes), fromDate: z.string().nullable(), toDate: z.string().nullable(), hasEnd: z.boolean(), address: deliveryAddressInputSchema.nullable() })
    .superRefine(({ fromDate, toDate, hasEnd }, context) => {
      const fromProblem = started ? null : startDayProblem(fromDate, calendar, requiredMessage('Fra og med'));
      if (fromProblem) context.addIssue({ code: 'custom', path: ['fromDate'], message: fromProblem });
      if (!hasEnd) return;
      const endProblem = !toDate
        ? deliveryMessages.toRequired
        : fromDate && toDate < fromDate
          ? deliveryMessages.toBeforeFrom
          : started && earliestEnd && toDate < earliestEnd
            ? `Endringen kan tidligst avsluttes ${longDate(earliestEnd)}.`
            : null;
      if (endProblem) context.addIssue({ code: 'custom', path: ['toDate'], message: endProblem });
    });
  return changeFields
    .transform(({ type, fromDate, toDate, openEnd, address }): z.input<typeof reviewed> => {
      const hasEnd = type !== 'PERMANENT' && !openEnd;
      return { type, fromDate, toDate: hasEnd ? toDate : null, hasEnd, address: type !== 'STOP' && !started ? address : null };
    })
    .pipe(reviewed);
}

type Reviewed = z.output<ReturnType<typeof changeSchema>>;

/**
 * A new vacation or delivery change, or a change to one: type, dates on issue days only, an
 * address where the paper goes; then a confirmation that names every affected issue, what
 * happens to the digital access and to the price, before anything is sent.
 */
export function ChangeForm({ titleCode, calendar, editing, onDone, onCancel }: ChangeFormProps) {
  const queryClient = useQueryClient();
  const save = useSaveDeliveryChange(titleCode);
  const started = editing?.state === 'started';
  const ids = { fromDate: useId(), toDate: useId(), address: useId() };
  const publicationDays = useMemo(() => new Set(calendar.publicationDays), [calendar.publicationDays]);
  const publicationCalendar = useMemo(() => calendarOfDays(calendar), [calendar]);
  const nextPossible = calendar.nextPossibleDeliveryDay;
  const schema = useMemo(
    () => changeSchema({ calendar: { nextPossibleDeliveryDay: nextPossible, publicationDays }, started, earliestEnd: editing?.earliestEnd ?? null }),
    [nextPossible, publicationDays, started, editing?.earliestEnd],
  );
  const change = useZodForm({
    schema,
    defaultValues: {
      type: editing?.type ?? 'STOP',
      fromDate: editing?.fromDate ?? null,
      toDate: editing?.toDate ?? null,
      openEnd: editing ? editing.toDate === null && editing.type !== 'PERMANENT' : false,
      address: addressValuesOf(editing?.address),
    },
    fieldIds: { fromDate: ids.fromDate, toDate: ids.toDate, ...addressFieldIds(ids.address, 'address.') },
  });
  const [confirming, setConfirming] = useState<Reviewed | null>(null);
  const [serverError, setServerError] = useState<{ message: string; offerNextPossible: boolean } | null>(null);
  const headingId = useId();
  const confirmHeading = useRef<HTMLHeadingElement>(null);
  const type = change.value('type');
  const openEnd = change.value('openEnd');
  const from = change.controlled('fromDate');
  const to = change.controlled('toDate');
  const fromDate = from.value;
  const toDate = to.value;
  const postalCode = change.value('address.postalCode');
  const town = usePostalCodeTown(postalCode.trim()).data?.town ?? '';
  const isConfirming = confirming !== null;
  useEffect(() => {
    if (isConfirming) confirmHeading.current?.focus();
  }, [isConfirming]);

  const hasEnd = type !== 'PERMANENT' && !openEnd;
  const needsAddress = type !== 'STOP';
  const errors = change.errors;

  function review(event: FormEvent) {
    setServerError(null);
    void change.handleSubmit(setConfirming)(event);
  }

  function chooseNextPossible() {
    from.onChange(nextPossible);
    setServerError(null);
  }

  async function confirm() {
    if (!confirming?.fromDate) return;
    const body = {
      type: confirming.type,
      fromDate: confirming.fromDate,
      toDate: confirming.toDate,
      address: started ? (editing?.address ? addressInputOf(editing.address) : null) : confirming.address,
    };
    try {
      const saved = await save.mutateAsync({ body, ...(editing ? { id: editing.id } : {}) });
      // The server's day, from the title's own calendar, is the one to tell.
      const resumes = saved.resumesOn && saved.type !== 'PERMANENT' ? ` ${deliveryResumesMessage(saved.type, saved.resumesOn)}` : '';
      onDone(`${editing ? 'Endringen er oppdatert.' : 'Endringen er registrert.'}${resumes}`);
    } catch (error) {
      setConfirming(null);
      if (isApiError(error) && error.code === deliveryErrorCodes.cutoffPassed) {
        // The clock passed the cutoff while the form was open: fetch the new next possible day and offer it.
        await queryClient.invalidateQueries({ queryKey: deliveryKeys.calendar(titleCode) });
        setServerError({ message: error.message, offerNextPossible: !started });
      } else {
        setServerError({ message: isApiError(error) ? error.message : 'Noe gikk galt. Prøv igjen.', offerNextPossible: false });
      }
    }
  }

  /** Issue 25.14: any day may end a stop or a redirect; say when the paper comes (home) again. */
  const resumesMessage = (end: string | null): string | null =>
    type !== 'PERMANENT' && end && (!fromDate || end >= fromDate) ? deliveryResumesMessage(type, deliveryResumesOn(publicationCalendar, end)) : null;
  const fromError = errors.fromDate;
  const offerNextPossible = (fromError !== undefined && fromDate !== null && fromDate < nextPossible) || serverError?.offerNextPossible;

  if (confirming?.fromDate) {
    const fromDate = confirming.fromDate;
    const end = confirming.toDate;
    const issues = calendar.publicationDays.filter((day) => day >= fromDate && day <= (end ?? addDays(fromDate, OPEN_END_PREVIEW_DAYS - 1)));
    const credit = calendar.pausedIssues.creditPerIssueOre;
    return (
      <section className={own.confirm} aria-labelledby={headingId}>
        <h3 id={headingId} className={own.confirmHeading} tabIndex={-1} ref={confirmHeading}>
          Se over før du bekrefter
        </h3>
        <dl className={own.summary}>
          <dt>Type</dt>
          <dd>{deliveryChangeTypeLabels[type]}</dd>
          <dt>Periode</dt>
          <dd>{type === 'PERMANENT' ? `Fra og med ${longDate(fromDate)}` : end ? `${longDate(fromDate)} – ${longDate(end)}` : `Fra og med ${longDate(fromDate)}, til du gir beskjed`}</dd>
          {needsAddress ? (
            <>
              <dt>{type === 'PERMANENT' ? 'Ny adresse' : 'Avisen sendes til'}</dt>
              <dd>
                {(editing?.address && started
                  ? addressLines(editing.address)
                  : confirming.address
                    ? [confirming.address.name, `${confirming.address.street} ${confirming.address.streetNumber}`, `${confirming.address.postalCode} ${town}`.trim()]
                    : []
                ).join(', ')}
              </dd>
            </>
          ) : null}
        </dl>
        {type === 'PERMANENT' ? (
          <p className={own.text}>Avisen leveres til den nye adressen fra og med {longDate(issues[0] ?? fromDate)}.</p>
        ) : (
          <>
            <h4 className={own.issuesHeading}>
              {end ? `Disse ${issues.length} avisene berøres:` : `Disse avisene berøres de første ${OPEN_END_PREVIEW_DAYS / 7} ukene (og alle etter, til du gir beskjed):`}
            </h4>
            <ul className={own.issues} aria-label="Aviser som berøres">
              {issues.map((day) => (
                <li key={day}>{shortIssueDate(day)}</li>
              ))}
            </ul>
          </>
        )}
        <ul className={own.consequences}>
          {resumesMessage(end) ? <li>{resumesMessage(end)}</li> : null}
          <li>Den digitale tilgangen din fortsetter som før: du kan lese eAvisen og alt innhold på nett hele tiden.</li>
          {type === 'STOP' ? (
            <li>
              {credit === 0
                ? 'Prisen er den samme: aviser som stoppes, blir ikke godskrevet.'
                : end
                  ? `Du får ${formatKroner(credit)} godskrevet per avis som stoppes, til sammen ${formatKroner(credit * issues.length)} for ${issues.length} aviser, på neste faktura.`
                  : `Du får ${formatKroner(credit)} godskrevet per avis som stoppes, på neste faktura.`}
            </li>
          ) : (
            <li>Prisen endres ikke.</li>
          )}
        </ul>
        <div className={styles.actions}>
          <button type="button" className={`${button.button} ${button.primary}`} onClick={() => void confirm()} disabled={save.isPending}>
            {save.isPending ? 'Lagrer …' : 'Bekreft endringen'}
          </button>
          <button type="button" className={`${button.button} ${button.secondary}`} onClick={() => setConfirming(null)} disabled={save.isPending}>
            Tilbake
          </button>
        </div>
      </section>
    );
  }

  return (
    <Form className={styles.form} onSubmit={review} errors={change.summary}>
      {serverError ? (
        <div className={styles.alert} role="alert">
          <p className={own.alertText}>{serverError.message}</p>
        </div>
      ) : null}
      {editing ? null : (
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Hva vil du gjøre?</legend>
          <div className={own.typeChoices}>
            {(['STOP', 'TRANSFER', 'PERMANENT'] as const).map((value) => (
              <label key={value} className={styles.choice}>
                <input type="radio" value={value} {...change.register('type')} />
                <span className={styles.choiceText}>
                  <span>{deliveryChangeTypeLabels[value]}</span>
                  <span className={styles.choiceHint}>{typeHints[value]}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      )}

      <div className={own.dates}>
        <IssueDatePicker
          id={ids.fromDate}
          label="Fra og med"
          value={fromDate}
          onChange={from.onChange}
          publicationDays={publicationDays}
          minValue={calendar.today}
          maxValue={calendar.lastSelectableDay}
          description={started ? 'Endringen har startet. Du kan bare endre sluttdatoen.' : 'Den første dagen med avis som skal endres.'}
          errorMessage={fromError ?? null}
          isDisabled={started}
          isRequired
        />
        {type === 'PERMANENT' ? null : (
          <div className={own.end}>
            <IssueDatePicker
              id={ids.toDate}
              label="Til og med"
              value={hasEnd ? toDate : null}
              onChange={to.onChange}
              publicationDays={publicationDays}
              anyDay
              minValue={editing?.earliestEnd ?? calendar.today}
              maxValue={calendar.lastSelectableDay}
              description={type === 'STOP' ? 'Den siste dagen du ikke skal ha avisen. Alle dager kan velges.' : 'Den siste dagen avisen skal sendes dit. Alle dager kan velges.'}
              errorMessage={errors.toDate ?? null}
              isDisabled={openEnd}
            />
            <div className={own.resumesRegion} aria-live="polite">
              {hasEnd && !errors.toDate && resumesMessage(toDate) ? <p className={own.resumes}>{resumesMessage(toDate)}</p> : null}
            </div>
            {started ? null : (
              <label className={styles.checkbox}>
                <input type="checkbox" {...change.register('openEnd')} />
                Til jeg gir beskjed
              </label>
            )}
          </div>
        )}
      </div>
      {offerNextPossible ? (
        <div className={own.offer}>
          <button type="button" className={`${button.button} ${button.secondary} ${button.small}`} onClick={chooseNextPossible}>
            Bruk {dayAndMonth(nextPossible)}
          </button>
        </div>
      ) : null}

      {needsAddress ? (
        started && editing?.address ? (
          <p className={own.text}>Avisen sendes til {addressLines(editing.address).join(', ')}.</p>
        ) : (
          <fieldset className={styles.fieldset}>
            <legend className={styles.legend}>{type === 'PERMANENT' ? 'Ny adresse' : 'Hvor skal avisen?'}</legend>
            <AddressFields idPrefix={ids.address} field={(name) => ({ registration: change.register(`address.${name}`), error: errors[`address.${name}`] })} postalCode={postalCode} />
          </fieldset>
        )
      ) : null}

      <div className={styles.actions}>
        <button type="submit" className={`${button.button} ${button.primary}`}>
          Se over endringen
        </button>
        {onCancel ? (
          <button type="button" className={`${button.button} ${button.secondary}`} onClick={onCancel}>
            Avbryt
          </button>
        ) : null}
      </div>
    </Form>
  );
}
