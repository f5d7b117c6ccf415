import { useEffect, useId, useRef, useState } from 'react';
import { searchAccountBodySchema, verifyConnectBodySchema } from '@minside/domain';
import { pages } from '../../../app/paths.ts';
import { CodeEntryForm, wrongCodeMessage } from '../../../components/code-entry-form.tsx';
import { Field, fieldAria } from '../../../components/field.tsx';
import form from '../../../components/form.module.css';
import { HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { useTitle } from '../../titles/index.ts';
import { useSearchAccount, useVerifyAndAssign } from '../api/connect.ts';

type SearchBy = 'number' | 'phone';

/** The search's errors by field: the first of the schema's messages for each. */
type SearchErrors = Partial<Record<'ariaAccountNo' | 'postalCode' | 'phoneNumber', string>>;

/**
 * SPEC §2 /koble-bruker: find a subscription bought elsewhere by subscriber number + postal
 * code or by phone (§7 search-account), prove it is yours with the code sent to its contact
 * e-mail (verify/), and it is connected (account/assign).
 */
export function ConnectSubscriptionPage() {
  const title = useTitle();
  const id = useId();
  const [by, setBy] = useState<SearchBy>('number');
  const [accountNo, setAccountNo] = useState('');
  const [postalCode, setPostalCode] = useState('');
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [searchErrors, setSearchErrors] = useState<SearchErrors>({});
  const [codeError, setCodeError] = useState<string | null>(null);
  const search = useSearchAccount(title.titleCode);
  const connect = useVerifyAndAssign(title.titleCode);
  const doneHeading = useRef<HTMLHeadingElement>(null);
  const found = search.data;

  useEffect(() => {
    if (connect.data) doneHeading.current?.focus();
  }, [connect.data]);

  const submitSearch = () => {
    const body = by === 'number' ? { ariaAccountNo: accountNo.trim(), postalCode: postalCode.trim() } : { phoneNumber: phone.trim() };
    const parsed = searchAccountBodySchema.safeParse(body);
    const found: SearchErrors = {};
    for (const issue of parsed.error?.issues ?? []) {
      // "Skriv abonnementsnummer og postnummer, eller telefonnummer" names no one field: it goes to the first of the way chosen.
      const field = issue.path[0] === 'ariaAccountNo' || issue.path[0] === 'postalCode' || issue.path[0] === 'phoneNumber' ? issue.path[0] : by === 'number' ? 'ariaAccountNo' : 'phoneNumber';
      found[field] ??= issue.message;
    }
    setSearchErrors(found);
    if (!parsed.success) return;
    connect.reset();
    setCode('');
    setCodeError(null);
    search.mutate(parsed.data);
  };
  const submitCode = () => {
    if (!found) return;
    const parsed = verifyConnectBodySchema.safeParse({ requestId: found.requestId, code });
    setCodeError(parsed.success ? null : (parsed.error.issues[0]?.message ?? null));
    if (parsed.success) connect.mutate(parsed.data, { onError: (error) => setCodeError(wrongCodeMessage(error)) });
  };

  const ids = { ariaAccountNo: `${id}-account`, postalCode: `${id}-postal`, phoneNumber: `${id}-phone` };
  /** A field being put right drops out of the summary (and its error goes) at once. */
  const edit = (field: keyof SearchErrors, set: (value: string) => void) => (value: string) => {
    set(value);
    setSearchErrors((current) => ({ ...current, [field]: undefined }));
  };
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
                    error={searchErrors.ariaAccountNo}
                    input={<input id={ids.ariaAccountNo} className={form.input} inputMode="numeric" value={accountNo} onChange={(event) => edit('ariaAccountNo', setAccountNo)(event.target.value)} {...fieldAria(ids.ariaAccountNo, { hint: accountHint, error: searchErrors.ariaAccountNo })} />}
                  />
                  <Field
                    id={ids.postalCode}
                    label="Postnummer"
                    hint={postalHint}
                    error={searchErrors.postalCode}
                    input={
                      <input
                        id={ids.postalCode}
                        className={form.input}
                        inputMode="numeric"
                        maxLength={4}
                        autoComplete="postal-code"
                        value={postalCode}
                        onChange={(event) => edit('postalCode', setPostalCode)(event.target.value)}
                        {...fieldAria(ids.postalCode, { hint: postalHint, error: searchErrors.postalCode })}
                      />
                    }
                  />
                </div>
              ) : (
                <Field
                  id={ids.phoneNumber}
                  label="Telefonnummer"
                  error={searchErrors.phoneNumber}
                  input={<input id={ids.phoneNumber} type="tel" className={form.input} autoComplete="tel" value={phone} onChange={(event) => edit('phoneNumber', setPhone)(event.target.value)} {...fieldAria(ids.phoneNumber, { error: searchErrors.phoneNumber })} />}
                />
              )}
            </>
          ),
          // Only the fields shown: an error of the other way of searching is not there to fix.
          fieldErrors: by === 'number' ? { [ids.ariaAccountNo]: searchErrors.ariaAccountNo, [ids.postalCode]: searchErrors.postalCode } : { [ids.phoneNumber]: searchErrors.phoneNumber },
          onSubmit: submitSearch,
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
          code,
          onCodeChange: setCode,
          codeError,
          onSubmit: submitCode,
          isPending: connect.isPending,
          error: wrongCodeMessage(connect.error) ? null : connect.error,
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
