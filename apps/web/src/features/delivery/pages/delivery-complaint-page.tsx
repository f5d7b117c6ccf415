import { useEffect, useId, useRef, useState } from 'react';
import { Link } from '../../../lib/router/index.ts';
import { z } from 'zod';
import { complaintRemedyLabels, complaintRequiresText, deliveryMessages, formatKroner, remediesFor, type ComplaintCode, type ComplaintReceipt, type ComplaintRemedy } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Form } from '../../../components/form.tsx';
import { Page } from '../../../components/page.tsx';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { useComplaintCodes } from '../api/get-complaint-codes.ts';
import { useComplaintOptions } from '../api/get-complaint-options.ts';
import { useFileComplaint, type ComplaintInput } from '../api/file-complaint.ts';
import { LoadState } from '../components/load-state.tsx';
import { PaperOnlyNotice } from '../components/paper-only-notice.tsx';
import { dayAndMonth } from '../format.ts';
import { useDeliveryTitle } from '../use-delivery-title.ts';
import form from '../../../components/form.module.css';
import styles from '../components/section.module.css';

/** The page's lead, in every state of the page. */
const lead = 'Gi beskjed hvis avisen ikke kom, kom for sent eller var skadet.';

/**
 * What the user chose and typed, checked together (every unanswered question is said at once):
 * a code, at least one day (SPEC §6 message), the text where the code needs one, and one of the
 * remedies offered for the days chosen (domain `remediesFor`); sent as the complaint's body.
 */
function complaintSchema(offeredFor: (days: string[]) => ComplaintRemedy[]) {
  return z
    .object({
      code: z.custom<ComplaintCode | ''>((value) => typeof value === 'string'),
      days: z.array(z.string()),
      text: z.string(),
      remedy: z.custom<ComplaintRemedy | ''>((value) => typeof value === 'string'),
    })
    .superRefine(({ code, days, text, remedy }, context) => {
      const problem = (path: string, message: string) => context.addIssue({ code: 'custom', path: [path], message });
      if (!code) problem('code', 'Velg hva som var galt');
      if (days.length === 0) problem('days', deliveryMessages.complaintDaysRequired);
      if (code && complaintRequiresText(code) && !text.trim()) problem('text', deliveryMessages.complaintTextRequired);
      if (!remedy || !offeredFor(days).includes(remedy)) problem('remedy', 'Velg hva du ønsker');
    })
    .transform(({ code, days, text, remedy }): ComplaintInput => ({ code, days, text: text.trim() || null, remedy }));
}

const noComplaint = { code: '', days: [], text: '', remedy: '' } as const;

function Receipt({ receipt, labelOf, onAnother }: { receipt: ComplaintReceipt; labelOf: (code: ComplaintCode) => string; onAnother: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className={styles.section} aria-labelledby="receipt-heading">
      <h2 id="receipt-heading" className={styles.heading} ref={heading} tabIndex={-1}>
        Takk, vi har fått beskjeden
      </h2>
      <p className={styles.infoText}>
        Saksnummer: <strong>{receipt.caseNumber}</strong>
      </p>
      <dl className={styles.plain}>
        <div>
          <dt className={form.label}>Hva gjaldt det</dt>
          <dd className={styles.infoText}>{labelOf(receipt.code)}</dd>
        </div>
        <div>
          <dt className={form.label}>{receipt.days.length === 1 ? 'Dag' : 'Dager'}</dt>
          <dd className={styles.infoText}>{receipt.days.map(dayAndMonth).join(', ')}</dd>
        </div>
        <div>
          <dt className={form.label}>Det du får</dt>
          <dd className={styles.infoText}>
            {receipt.credit ? `${formatKroner(receipt.credit.amountOre)} trekkes fra neste faktura (kreditnota ${receipt.credit.creditNoteNumbers.join(', ')})` : complaintRemedyLabels[receipt.remedy]}
          </dd>
        </div>
      </dl>
      {receipt.credit ? (
        <p className={styles.infoText}>
          Kreditnotaen finner du under <Link to={pathTo('invoiceOverview')}>Fakturaer</Link>.
        </p>
      ) : null}
      <p className={styles.muted}>Oppgi saksnummeret hvis du kontakter kundeservice om saken.</p>
      <div className={form.actions}>
        <Link className={`${button.button} ${button.primary}`} to={pathTo('home')}>
          Til Min Side
        </Link>
        <button type="button" className={`${button.button} ${button.secondary}`} onClick={onAnother}>
          Meld fra om noe annet
        </button>
      </div>
    </section>
  );
}

/** /tilbakemelding: a delivery complaint, for paper subscribers only (SPEC §6). */
export function DeliveryComplaintPage() {
  const page = pages.deliveryComplaint;
  const { titleCode, isPaper } = useDeliveryTitle();
  const codes = useComplaintCodes();
  const options = useComplaintOptions(titleCode);
  const file = useFileComplaint(titleCode);
  /** A refused or lost call, with what was sent: "Prøv igjen" sends the same (the same idempotency key). */
  const [failed, setFailed] = useState<{ error: unknown; input: ComplaintInput } | null>(null);
  const [receipt, setReceipt] = useState<ComplaintReceipt | null>(null);
  const ids = { code: useId(), days: useId(), text: useId(), remedy: useId() };
  const today = options.data?.today ?? '';
  const remedies = options.data?.remedies;
  const offeredFor = (chosen: string[]) => remediesFor(remedies ?? [], chosen.length > 0 ? chosen : [today], today);
  const complaint = useZodForm({
    schema: complaintSchema(offeredFor),
    defaultValues: { ...noComplaint, days: [] },
    fieldIds: { code: ids.code, days: ids.days, text: ids.text, remedy: ids.remedy },
  });
  const errors = complaint.errors;

  if (!isPaper) {
    return (
      <Page title={page.title} lead={lead}>
        <PaperOnlyNotice />
      </Page>
    );
  }

  const labelOf = (value: ComplaintCode) => codes.data?.find((entry) => entry.code === value)?.label ?? value;

  if (receipt) {
    return (
      <Page title={page.title} lead={lead}>
        <Receipt
          receipt={receipt}
          labelOf={labelOf}
          onAnother={() => {
            setReceipt(null);
            complaint.reset({ ...noComplaint, days: [] });
          }}
        />
      </Page>
    );
  }

  if (!codes.data || !options.data) {
    return (
      <Page title={page.title} lead={lead}>
        <LoadState error={options.error ?? codes.error} />
      </Page>
    );
  }

  const reported = new Set(options.data.reported.map((entry) => `${entry.day}|${entry.code}`));
  // The operator's delivery notices: what went wrong those days is explained before anything is sent.
  const noticeOf = new Map(options.data.notices.map((entry) => [entry.day, entry.message]));
  const code = complaint.controlled('code');
  const days = complaint.controlled('days');
  const remedy = complaint.controlled('remedy');
  const offered = offeredFor(days.value);
  const chosenRemedy = remedy.value && offered.includes(remedy.value) ? remedy.value : null;
  const needsText = code.value !== '' && complaintRequiresText(code.value);

  function toggleDay(day: string, checked: boolean) {
    days.onChange(checked ? [...days.value, day].sort().reverse() : days.value.filter((d) => d !== day));
  }

  async function send(input: ComplaintInput) {
    setFailed(null);
    try {
      setReceipt(await file.mutateAsync(input));
    } catch (error) {
      setFailed({ error, input });
    }
  }

  return (
    <Page title={page.title} lead={lead}>
      <section className={styles.section} aria-labelledby="complaint-heading">
        <h2 id="complaint-heading" className={styles.heading}>
          Hva skjedde?
        </h2>
        {options.data.notices.length > 0 ? (
          <div className={styles.info}>
            <p className={styles.infoText}>
              <strong>Vi vet om problemer med leveringen</strong>
            </p>
            {options.data.notices.map((entry) => (
              <p key={entry.day} className={styles.infoText}>
                {dayAndMonth(entry.day)}: {entry.message}
              </p>
            ))}
            <p className={styles.infoText}>Du kan likevel melde fra, for eksempel om avisen ikke kom i det hele tatt.</p>
          </div>
        ) : null}
        <Form className={form.form} onSubmit={complaint.handleSubmit(send)} errors={complaint.summary}>
          <ErrorAlert error={failed?.error} fallback="Noe gikk galt. Prøv igjen." onRetry={failed ? () => void send(failed.input) : undefined} />

          <fieldset id={ids.code} className={form.fieldset} aria-describedby={errors.code ? `${ids.code}-error` : undefined}>
            <legend className={form.legend}>Hva var galt?</legend>
            <div className={form.choices}>
              {codes.data.map((entry) => (
                <label key={entry.code} className={form.choice}>
                  <input type="radio" name={ids.code} value={entry.code} checked={code.value === entry.code} onChange={() => code.onChange(entry.code)} />
                  <span className={form.choiceText}>{entry.label}</span>
                </label>
              ))}
            </div>
            {errors.code ? (
              <p id={`${ids.code}-error`} className={form.error}>
                {errors.code}
              </p>
            ) : null}
          </fieldset>

          <fieldset id={ids.days} className={form.fieldset} aria-describedby={errors.days ? `${ids.days}-error` : `${ids.days}-hint`}>
            <legend className={form.legend}>Hvilke dager?</legend>
            <p id={`${ids.days}-hint`} className={form.hint}>
              Du kan melde fra om dager med avis de siste 7 dagene.
            </p>
            <div className={form.choices}>
              {options.data.days.map((day) => {
                const already = code.value !== '' && reported.has(`${day}|${code.value}`);
                const notice = noticeOf.get(day);
                return (
                  <label key={day} className={form.choice}>
                    <input type="checkbox" value={day} checked={days.value.includes(day)} disabled={already} onChange={(event) => toggleDay(day, event.target.checked)} />
                    <span className={form.choiceText}>
                      <span>
                        {dayAndMonth(day)}
                        {day === today ? ' (i dag)' : ''}
                      </span>
                      {already ? <span className={form.choiceHint}>Allerede meldt</span> : null}
                      {notice ? <span className={form.choiceHint}>Kjent leveringsproblem: {notice}</span> : null}
                    </span>
                  </label>
                );
              })}
            </div>
            {errors.days ? (
              <p id={`${ids.days}-error`} className={form.error}>
                {errors.days}
              </p>
            ) : null}
          </fieldset>

          <div className={form.field}>
            <label className={form.label} htmlFor={ids.text}>
              Beskriv kort hva som var galt {needsText ? null : <span className={form.optional}>(valgfritt)</span>}
            </label>
            <textarea
              id={ids.text}
              className={form.textarea}
              maxLength={500}
              aria-invalid={errors.text ? true : undefined}
              aria-describedby={errors.text ? `${ids.text}-error` : undefined}
              {...complaint.register('text')}
            />
            {errors.text ? (
              <p id={`${ids.text}-error`} className={form.error}>
                {errors.text}
              </p>
            ) : null}
          </div>

          <fieldset id={ids.remedy} className={form.fieldset} aria-describedby={errors.remedy ? `${ids.remedy}-error` : undefined}>
            <legend className={form.legend}>Hva ønsker du?</legend>
            <div className={form.choices}>
              {offered.map((value) => (
                <label key={value} className={form.choice}>
                  <input type="radio" name={ids.remedy} value={value} checked={chosenRemedy === value} onChange={() => remedy.onChange(value)} />
                  <span className={form.choiceText}>{complaintRemedyLabels[value]}</span>
                </label>
              ))}
            </div>
            {errors.remedy ? (
              <p id={`${ids.remedy}-error`} className={form.error}>
                {errors.remedy}
              </p>
            ) : null}
          </fieldset>

          <div className={form.actions}>
            <button type="submit" className={`${button.button} ${button.primary}`} disabled={file.isPending}>
              {file.isPending ? 'Sender …' : 'Send inn'}
            </button>
          </div>
        </Form>
      </section>
    </Page>
  );
}
