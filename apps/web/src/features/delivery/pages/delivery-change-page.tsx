import { useRef, useState } from 'react';
import type { DeliveryChange } from '@minside/domain';
import { pages } from '../../../app/paths.ts';
import { Page } from '../../../components/page.tsx';
import { useDeliveryCalendar } from '../api/get-calendar.ts';
import { useDeliveryChanges } from '../api/get-changes.ts';
import { ChangeForm } from '../components/change-form.tsx';
import { ChangeList } from '../components/change-list.tsx';
import { LoadState } from '../components/load-state.tsx';
import { PaperOnlyNotice } from '../components/paper-only-notice.tsx';
import { cutoffSentence, longDate } from '../format.ts';
import { useDeliveryTitle } from '../use-delivery-title.ts';
import form from '../../../components/form.module.css';
import styles from '../components/section.module.css';

/** The page's lead, in every state of the page. */
const lead = 'Stopp avisen eller send den til en annen adresse i ferien, eller endre leveringen for godt.';

/** /endre-avislevering: vacation stops, redirects and moves (SPEC §2, §3, §5). */
export function DeliveryChangePage() {
  const page = pages.deliveryChange;
  const { titleCode, isPaper } = useDeliveryTitle();
  const calendar = useDeliveryCalendar(titleCode);
  const changes = useDeliveryChanges(titleCode);
  const [editing, setEditing] = useState<DeliveryChange | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const formHeading = useRef<HTMLHeadingElement>(null);

  if (!isPaper) {
    return (
      <Page title={page.title} lead={lead}>
        <PaperOnlyNotice />
      </Page>
    );
  }

  const done = (text: string) => {
    setMessage(text);
    setEditing(null);
    setFormKey((key) => key + 1);
  };

  return (
    <Page title={page.title} lead={lead}>
      {calendar.data ? (
        <section className={styles.info} aria-label="Frist for endringer">
          <p className={styles.infoText}>
            {cutoffSentence(calendar.data.cutoffTime)} Første dag du kan endre nå, er <strong>{longDate(calendar.data.nextPossibleDeliveryDay)}</strong>.
          </p>
        </section>
      ) : null}

      {message ? (
        <p className={form.success} role="status">
          {message}
        </p>
      ) : null}

      <section className={styles.plain} aria-labelledby="changes-heading">
        <h2 id="changes-heading" className={styles.heading}>
          Dine endringer
        </h2>
        {changes.data ? (
          <ChangeList
            titleCode={titleCode}
            changes={changes.data}
            onMessage={setMessage}
            onEdit={(change) => {
              setMessage(null);
              setEditing(change);
              requestAnimationFrame(() => formHeading.current?.focus());
            }}
          />
        ) : (
          <LoadState error={changes.error} />
        )}
      </section>

      <section className={styles.section} aria-labelledby="change-form-heading">
        <h2 id="change-form-heading" className={styles.heading} ref={formHeading} tabIndex={-1}>
          {editing ? 'Endre' : 'Ny endring'}
        </h2>
        {calendar.data ? (
          <ChangeForm key={editing?.id ?? `new-${formKey}`} titleCode={titleCode} calendar={calendar.data} onDone={done} {...(editing ? { editing, onCancel: () => setEditing(null) } : {})} />
        ) : (
          <LoadState error={calendar.error} />
        )}
      </section>
    </Page>
  );
}
