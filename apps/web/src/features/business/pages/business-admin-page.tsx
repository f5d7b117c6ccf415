import { useId, useMemo, useState } from 'react';
import {
  businessErrorCodes,
  businessInviteBodySchema,
  businessMemberStatusLabels,
  businessMessages,
  formatLongDate,
  isBusinessAdmin,
  matchesMemberSearch,
  osloToday,
  splitEmailList,
  type BusinessInviteResponse,
  type BusinessMember,
  type BusinessOverview,
  type BusinessRemoveResponse,
} from '@minside/domain';
import { pages } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { Form } from '../../../components/form.tsx';
import form from '../../../components/form.module.css';
import { HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { isApiError } from '../../../lib/http.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { useSessionSubscription } from '../../auth/index.ts';
import { useTitle } from '../../titles/index.ts';
import { businessExportHref, useBusinessOverview } from '../api/get-overview.ts';
import { useInviteMembers } from '../api/invite-members.ts';
import { useInvitationAction } from '../api/invitation-actions.ts';
import { useRemoveMembers } from '../api/remove-members.ts';
import styles from '../components/business.module.css';
import { EinvoiceSection } from '../components/einvoice-section.tsx';

function errorText(error: unknown): string {
  return isApiError(error) ? error.message : businessMessages.error;
}

const dateOf = (timestamp: string) => formatLongDate(osloToday(new Date(timestamp)));

/** Refusals of the list as a whole (none in it, too many): about the field, so said there. */
const listErrorCodes: ReadonlySet<string> = new Set([businessErrorCodes.emptyList, businessErrorCodes.listTooLong]);

/** The server's own check of the list, before the call: the same SPEC message. */
const inviteFormSchema = businessInviteBodySchema.refine((body) => splitEmailList(body.emails).length > 0, { path: ['emails'], message: businessMessages.emptyList });

function InviteSection({ titleCode, overview }: { titleCode: string; overview: BusinessOverview }) {
  const invite = useInviteMembers(titleCode);
  const id = useId();
  const emailsId = `${id}-emails`;
  const list = useZodForm({
    schema: inviteFormSchema,
    defaultValues: { emails: '' },
    fieldIds: { emails: emailsId },
    apiErrorField: (error) => (listErrorCodes.has(error.code) ? 'emails' : null),
  });
  const listError = list.errors.emails;
  const submit = ({ emails }: { emails: string }) =>
    invite.mutate(emails, {
      // What was not sent stays in the field, to be put right and sent again.
      onSuccess: (result) =>
        list.reset({
          emails: result.results
            .filter((item) => item.result !== 'emailSent')
            .map((item) => item.input)
            .join('\n'),
        }),
      onError: list.setApiError,
    });
  return (
    <section className={ui.panel} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className={ui.panelHeading}>
        Inviter ansatte
      </h2>
      <Form className={form.form} onSubmit={list.handleSubmit(submit)} errors={list.summary}>
        <div className={form.field}>
          <label htmlFor={emailsId} className={form.label}>
            E-postadresser
          </label>
          <span id={`${id}-hint`} className={form.hint}>
            Lim inn mange på en gang, skilt med komma, semikolon, mellomrom eller linjeskift. Bare adresser som slutter på @{overview.companyDomain} blir sendt.
          </span>
          <textarea
            id={emailsId}
            className={form.textarea}
            rows={5}
            aria-invalid={listError ? true : undefined}
            aria-describedby={listError ? `${id}-hint ${emailsId}-error` : `${id}-hint`}
            spellCheck={false}
            autoCapitalize="none"
            {...list.register('emails')}
          />
          {listError ? (
            <p id={`${emailsId}-error`} className={form.error}>
              {listError}
            </p>
          ) : null}
        </div>
        <div className={ui.actions}>
          <button type="submit" className={`${button.button} ${button.primary} ${ui.button}`} disabled={invite.isPending || overview.remaining === 0}>
            {invite.isPending ? 'Sender …' : 'Send invitasjoner'}
          </button>
        </div>
        {overview.remaining === 0 ? <p className={ui.muted}>{businessMessages.maxUsersReached.split('.')[0]}.</p> : null}
      </Form>
      <div aria-live="polite">
        {invite.data ? <InviteResult result={invite.data} /> : null}
        {list.alertError(invite.error) ? (
          <p className={ui.alert} role="alert">
            {errorText(invite.error)}
          </p>
        ) : null}
      </div>
    </section>
  );
}

function InviteResult({ result }: { result: BusinessInviteResponse }) {
  const notSent = result.results.filter((item) => item.result !== 'emailSent');
  return (
    <div className={ui.stack}>
      {result.sentCount > 0 ? (
        <p className={ui.success} role="status">
          {result.sentCount === 1 ? '1 invitasjon er sendt.' : `${result.sentCount} invitasjoner er sendt.`}
        </p>
      ) : null}
      {notSent.length > 0 ? (
        <div className={ui.alert} role="alert">
          <p className={ui.text}>{businessMessages.someNotSent}</p>
          <ul className={styles.resultList}>
            {notSent.map((item, index) => (
              <li key={`${item.input}-${index}`}>
                <strong>{item.input}</strong>: {item.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

function RemoveResult({ result }: { result: BusinessRemoveResponse }) {
  const deleted = result.results.filter((item) => item.result === 'deleted').length;
  const failed = result.results.filter((item) => item.result === 'failed');
  return (
    <div className={ui.stack}>
      {deleted > 0 ? (
        <p className={ui.success} role="status">
          {deleted === 1 ? '1 person er fjernet.' : `${deleted} personer er fjernet.`}
        </p>
      ) : null}
      {failed.length > 0 ? (
        <div className={ui.alert} role="alert">
          <p className={ui.text}>{businessMessages.partialRemovalFailure}</p>
          <ul className={styles.resultList}>
            {failed.map((item) => (
              <li key={item.id}>
                <strong>{item.email}</strong>: {item.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

/**
 * "Send på nytt" and "Trekk tilbake" on one pending invitation (issue 25.15). The buttons name the
 * address for a screen reader; while one runs, the row's buttons wait.
 */
function InvitationActions({ member, busy, onAction }: { member: BusinessMember; busy: boolean; onAction: (action: 'resend' | 'withdraw') => void }) {
  if (member.status !== 'emailSent') return null;
  return (
    <div className={styles.rowActions}>
      <button type="button" className={`${button.button} ${button.secondary} ${button.small}`} disabled={busy} onClick={() => onAction('resend')}>
        Send på nytt<span className="visually-hidden"> til {member.email}</span>
      </button>
      <button type="button" className={`${button.button} ${button.link}`} disabled={busy} onClick={() => onAction('withdraw')}>
        Trekk tilbake<span className="visually-hidden"> invitasjonen til {member.email}</span>
      </button>
    </div>
  );
}

function MemberSection({ titleCode, overview }: { titleCode: string; overview: BusinessOverview }) {
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const remove = useRemoveMembers(titleCode);
  const invitation = useInvitationAction(titleCode);
  const id = useId();
  const shown = useMemo(() => overview.members.filter((member) => matchesMemberSearch(member, query)), [overview.members, query]);
  const chosen = shown.filter((member) => selected.has(member.id));
  const allChosen = shown.length > 0 && chosen.length === shown.length;
  const toggle = (memberId: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(memberId);
      else next.delete(memberId);
      return next;
    });
  const removeChosen = () =>
    remove.mutate(
      chosen.map((member) => member.id),
      {
        onSuccess: (result) => setSelected(new Set(result.results.filter((item) => item.result === 'failed').map((item) => item.id))),
      },
    );

  return (
    <section className={ui.panel} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className={ui.panelHeading}>
        Ansatte med tilgang
      </h2>
      <div className={styles.toolbar}>
        <div className={`${form.field} ${styles.search}`}>
          <label htmlFor={`${id}-search`} className={form.label}>
            Søk etter e-post
          </label>
          <input id={`${id}-search`} type="search" className={form.input} value={query} onChange={(event) => setQuery(event.target.value)} />
        </div>
        <a className={`${button.button} ${button.secondary}`} href={businessExportHref(titleCode, query)} download>
          Last ned som CSV
        </a>
      </div>
      <p className={ui.muted} aria-live="polite">
        {query.trim() ? `${shown.length} av ${overview.members.length} vises.` : `${overview.members.length} personer i listen.`}
      </p>
      {shown.length > 0 ? (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <caption className={styles.caption}>Sendt betyr at invitasjonen venter på at personen bekrefter jobb-e-posten sin.</caption>
            <thead>
              <tr>
                <th scope="col" className={styles.check}>
                  <input
                    type="checkbox"
                    aria-label="Velg alle som vises"
                    checked={allChosen}
                    onChange={(event) => setSelected(event.target.checked ? new Set(shown.map((member) => member.id)) : new Set())}
                  />
                </th>
                <th scope="col">E-post</th>
                <th scope="col">Lagt til</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Invitasjon</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((member) => (
                <tr key={member.id}>
                  <td className={styles.check}>
                    <input type="checkbox" aria-label={`Velg ${member.email}`} checked={selected.has(member.id)} onChange={(event) => toggle(member.id, event.target.checked)} />
                  </td>
                  <td className={styles.email}>{member.email}</td>
                  <td className={styles.date}>{dateOf(member.addedAt)}</td>
                  <td className={styles.status}>
                    <span className={member.status === 'active' ? `${styles.badge} ${styles.active}` : styles.badge}>{businessMemberStatusLabels[member.status]}</span>
                  </td>
                  <td className={styles.actionsCell}>
                    <InvitationActions member={member} busy={invitation.isPending} onAction={(action) => invitation.mutate({ action, id: member.id, email: member.email })} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className={ui.muted}>{overview.members.length === 0 ? 'Ingen er invitert ennå.' : 'Ingen e-postadresser passer med søket.'}</p>
      )}
      <div className={ui.actions}>
        <button type="button" className={`${button.button} ${ui.button} ${ui.danger}`} disabled={chosen.length === 0 || remove.isPending} onClick={removeChosen}>
          {remove.isPending ? 'Fjerner …' : `Fjern valgte (${chosen.length})`}
        </button>
      </div>
      <div aria-live="polite">
        {invitation.data ? (
          <p className={ui.success} role="status">
            {invitation.data.message}
          </p>
        ) : null}
        {invitation.error ? (
          <p className={ui.alert} role="alert">
            {invitation.variables ? `${invitation.variables.email}: ` : ''}
            {errorText(invitation.error)}
          </p>
        ) : null}
        {remove.data ? <RemoveResult result={remove.data} /> : null}
        {remove.error ? (
          <p className={ui.alert} role="alert">
            {errorText(remove.error)}
          </p>
        ) : null}
      </div>
    </section>
  );
}

/**
 * SPEC §2 /administrer-bedrift: the admin invites colleagues in bulk, sees, searches and exports the
 * list, resends or withdraws one pending invitation (issue 25.15), and removes people.
 */
export function BusinessAdminPage() {
  const subscription = useSessionSubscription();
  const title = useTitle();
  const admin = subscription !== null && isBusinessAdmin(subscription);
  const { data: overview, error, isPending } = useBusinessOverview(title.titleCode, admin);

  if (!admin) {
    return (
      <Page title={pages.businessAdmin.title}>
        <section className={ui.panelAccent} aria-label="Bare for administratorer">
          <p className={ui.text} role="alert">
            {businessMessages.notAdmin}
          </p>
          <div className={ui.actions}>
            <HomeLink variant="secondary" />
          </div>
        </section>
      </Page>
    );
  }

  return (
    <Page title={pages.businessAdmin.title} lead="Gi kollegaene dine tilgang gjennom bedriftens abonnement, og fjern dem som ikke lenger skal ha det.">
      <div className={ui.stack}>
        {isPending ? (
          <p className={ui.muted} role="status">
            Henter listen …
          </p>
        ) : null}
        {error ? (
          <p className={ui.alert} role="alert">
            {errorText(error)}
          </p>
        ) : null}
        {overview ? (
          <>
            <dl className={ui.facts}>
              <div className={ui.fact}>
                <dt>Domene</dt>
                <dd>@{overview.companyDomain}</dd>
              </div>
              <div className={ui.fact}>
                <dt>Plasser brukt</dt>
                <dd>
                  {overview.used} av {overview.maxMembers} ({overview.remaining} ledige)
                </dd>
              </div>
            </dl>
            <InviteSection titleCode={title.titleCode} overview={overview} />
            <MemberSection titleCode={title.titleCode} overview={overview} />
            <EinvoiceSection titleCode={title.titleCode} />
          </>
        ) : null}
      </div>
    </Page>
  );
}
