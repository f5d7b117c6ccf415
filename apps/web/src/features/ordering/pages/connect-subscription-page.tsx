import { useEffect, useId, useRef, useState } from 'react';
import { searchAccountBodySchema, verifyConnectBodySchema } from '@minside/domain';
import { pages } from '../../../app/paths.ts';
import { CodeEntryForm } from '../../../components/code-entry-form.tsx';
import form from '../../../components/form.module.css';
import { HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { useTitle } from '../../titles/index.ts';
import { useSearchAccount, useVerifyAndAssign } from '../api/connect.ts';

type SearchBy = 'number' | 'phone';

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
  const [formError, setFormError] = useState<string | null>(null);
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
    setFormError(parsed.success ? null : (parsed.error.issues[0]?.message ?? null));
    if (!parsed.success) return;
    connect.reset();
    setCode('');
    search.mutate(parsed.data);
  };
  const submitCode = () => {
    if (!found) return;
    const parsed = verifyConnectBodySchema.safeParse({ requestId: found.requestId, code });
    setCodeError(parsed.success ? null : (parsed.error.issues[0]?.message ?? null));
    if (parsed.success) connect.mutate(parsed.data);
  };

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
                  <div className={form.field}>
                    <label htmlFor={`${id}-account`} className={form.label}>
                      Abonnementsnummer
                    </label>
                    <span id={`${id}-account-hint`} className={form.hint}>
                      Står på fakturaen, for eksempel 40000099.
                    </span>
                    <input id={`${id}-account`} className={form.input} inputMode="numeric" value={accountNo} onChange={(event) => setAccountNo(event.target.value)} aria-describedby={`${id}-account-hint`} />
                  </div>
                  <div className={form.field}>
                    <label htmlFor={`${id}-postal`} className={form.label}>
                      Postnummer
                    </label>
                    <span id={`${id}-postal-hint`} className={form.hint}>
                      Der avisen leveres.
                    </span>
                    <input id={`${id}-postal`} className={form.input} inputMode="numeric" maxLength={4} autoComplete="postal-code" value={postalCode} onChange={(event) => setPostalCode(event.target.value)} aria-describedby={`${id}-postal-hint`} />
                  </div>
                </div>
              ) : (
                <div className={form.field}>
                  <label htmlFor={`${id}-phone`} className={form.label}>
                    Telefonnummer
                  </label>
                  <input id={`${id}-phone`} type="tel" className={form.input} autoComplete="tel" value={phone} onChange={(event) => setPhone(event.target.value)} />
                </div>
              )}
              {formError ? (
                <p className={ui.alert} role="alert">
                  {formError}
                </p>
              ) : null}
            </>
          ),
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
