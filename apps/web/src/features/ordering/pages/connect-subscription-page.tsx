import { useEffect, useId, useRef, useState } from 'react';
import { z } from 'zod';
import { searchAccountBodySchema } from '@minside/domain';
import { pages } from '../../../app/paths.ts';
import { CodeEntryForm } from '../../../components/code-entry-form.tsx';
import { Field, fieldAria } from '../../../components/field.tsx';
import form from '../../../components/form.module.css';
import { HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { useTitle } from '../../titles/index.ts';
import { useSearchAccount, useVerifyAndAssign } from '../api/connect.ts';

type SearchBy = 'number' | 'phone';

/**
 * The search step while the user types: every field a string. What is checked and sent is the
 * domain's search of the way chosen, whose fields have the same names.
 */
const searchFields = z.object({ ariaAccountNo: z.string(), postalCode: z.string(), phoneNumber: z.string() });
const searchSchemas = {
  number: searchFields
    .transform(({ ariaAccountNo, postalCode }): z.input<typeof searchAccountBodySchema> => ({ ariaAccountNo: ariaAccountNo.trim(), postalCode: postalCode.trim() }))
    .pipe(searchAccountBodySchema),
  phone: searchFields.transform(({ phoneNumber }): z.input<typeof searchAccountBodySchema> => ({ phoneNumber: phoneNumber.trim() })).pipe(searchAccountBodySchema),
} satisfies Record<SearchBy, unknown>;

/**
 * SPEC §2 /koble-bruker: find a subscription bought elsewhere by subscriber number + postal
 * code or by phone (§7 search-account), prove it is yours with the code sent to its contact
 * e-mail (verify/), and it is connected (account/assign).
 */
export function ConnectSubscriptionPage() {
  const title = useTitle();
  const id = useId();
  const search = useSearchAccount(title.titleCode);
  const connect = useVerifyAndAssign(title.titleCode);
  const doneHeading = useRef<HTMLHeadingElement>(null);
  const found = search.data;
  const ids = { ariaAccountNo: `${id}-account`, postalCode: `${id}-postal`, phoneNumber: `${id}-phone` };
  const [by, setBy] = useState<SearchBy>('number');
  const searchForm = useZodForm({
    schema: searchSchemas[by],
    defaultValues: { ariaAccountNo: '', postalCode: '', phoneNumber: '' },
    // Only the fields shown: an error of the other way of searching is not there to fix.
    fieldIds: by === 'number' ? { ariaAccountNo: ids.ariaAccountNo, postalCode: ids.postalCode } : { phoneNumber: ids.phoneNumber },
  });
  const errors = searchForm.errors;

  useEffect(() => {
    if (connect.data) doneHeading.current?.focus();
  }, [connect.data]);

  const accountHint = 'Står på fakturaen, for eksempel 40000099.';
  const postalHint = 'Der avisen leveres.';

  if (connect.data) {
    return (
      <Page title={pages.connectSubscription.title}>
        <section className={`${ui.panelAccent} ${ui.narrow}`} aria-labelledby={`${id}-done`}>
          <h2 id={`${id}-done`} className={ui.panelHeading} tabIndex={-1} ref={doneHeading}>
            Abonnementet er koblet til
          </h2>
          <p className={ui.success} role="status">
            {connect.data.message}
          </p>
          <div className={ui.actions}>
            <HomeLink />
          </div>
        </section>
      </Page>
    );
  }

  return (
    <Page title={pages.connectSubscription.title} lead="Har du kjøpt abonnement hos kundesenteret eller på papir? Finn det, og koble det til brukeren din.">
      <CodeEntryForm
        sent={found}
        request={{
          heading: 'Finn abonnementet',
          fields: (
            <>
              <fieldset className={form.fieldset}>
                <legend className={form.legend}>Søk med</legend>
                <div className={form.choices}>
                  <label className={form.choice}>
                    <input type="radio" name="by" checked={by === 'number'} onChange={() => setBy('number')} />
                    <span className={form.choiceText}>Abonnementsnummer og postnummer</span>
                  </label>
                  <label className={form.choice}>
                    <input type="radio" name="by" checked={by === 'phone'} onChange={() => setBy('phone')} />
                    <span className={form.choiceText}>Telefonnummer</span>
                  </label>
                </div>
              </fieldset>
              {by === 'number' ? (
                <div className={form.row}>
                  <Field
                    id={ids.ariaAccountNo}
                    label="Abonnementsnummer"
                    hint={accountHint}
                    error={errors.ariaAccountNo}
                    input={
                      <input
                        id={ids.ariaAccountNo}
                        className={form.input}
                        inputMode="numeric"
                        {...fieldAria(ids.ariaAccountNo, { hint: accountHint, error: errors.ariaAccountNo })}
                        {...searchForm.register('ariaAccountNo')}
                      />
                    }
                  />
                  <Field
                    id={ids.postalCode}
                    label="Postnummer"
                    hint={postalHint}
                    error={errors.postalCode}
                    input={
                      <input
                        id={ids.postalCode}
                        className={form.input}
                        inputMode="numeric"
                        maxLength={4}
                        autoComplete="postal-code"
                        {...fieldAria(ids.postalCode, { hint: postalHint, error: errors.postalCode })}
                        {...searchForm.register('postalCode')}
                      />
                    }
                  />
                </div>
              ) : (
                <Field
                  id={ids.phoneNumber}
                  label="Telefonnummer"
                  error={errors.phoneNumber}
                  input={
                    <input
                      id={ids.phoneNumber}
                      type="tel"
                      className={form.input}
                      autoComplete="tel"
                      {...fieldAria(ids.phoneNumber, { error: errors.phoneNumber })}
                      {...searchForm.register('phoneNumber')}
                    />
                  }
                />
              )}
            </>
          ),
          form: searchForm,
          onSubmit: (body) => {
            connect.reset();
            return search.mutateAsync(body);
          },
          isPending: search.isPending,
          error: search.error,
          submitLabel: 'Finn abonnementet',
          resubmitLabel: 'Søk på nytt',
          pendingLabel: 'Søker …',
        }}
        confirm={{
          heading: 'Bekreft at abonnementet er ditt',
          // The same words whatever the search found (issue 20): the plans are named once the code has proved the mailbox.
          sentMessage: found ? found.message : null,
          onSubmit: (code) => connect.mutateAsync({ requestId: found?.requestId ?? '', code }),
          isPending: connect.isPending,
          error: connect.error,
          submitLabel: 'Koble til abonnementet',
          pendingLabel: 'Kobler til …',
        }}
      >
        <p className={ui.muted}>
          Finner du det ikke? Kontakt kundesenteret på telefon {title.customerCenterPhoneNumber} eller {title.customerCenterEmail}.
        </p>
      </CodeEntryForm>
    </Page>
  );
}
