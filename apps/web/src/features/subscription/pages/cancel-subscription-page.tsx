import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from '../../../lib/router/index.ts';
import {
  cancellationReasons,
  cancellationReasonsFor,
  cancellationSurveySchema,
  decideTransition,
  formatLongDate,
  lastDayWithAccess,
  renewalDay,
  type CancellationActionType,
  type CancellationSurvey,
  type RetentionOffer,
  type Subscription,
} from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Field, fieldAria } from '../../../components/field.tsx';
import { Form } from '../../../components/form.tsx';
import { HomeAndCustomerServiceLinks, HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import { NoticePanel } from '../../../components/panel.tsx';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { retentionOfferQueryOptions } from '../api/get-retention-offer.ts';
import { deleteSubscription } from '../api/mutations.ts';
import form from '../../../components/form.module.css';
import ui from '../../../components/ui.module.css';
import { priceLabel } from '../labels.ts';
import { useCurrentSubscription, useSubscriptionUpdate, useToday } from '../use-subscription.ts';
import type { HomeNotice } from './home-page.tsx';
import type { CancelledState } from './subscription-cancelled-page.tsx';

type Step = 'survey' | 'offer' | 'confirm';

function StepHeading({ step, total, children }: { step: number; total: number; children: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  // Each new step takes the focus, so a screen reader starts reading there.
  useEffect(() => {
    if (step > 1) ref.current?.focus();
  }, [step]);
  return (
    <div>
      <p className={ui.eyebrow}>
        Steg {step} av {total}
      </p>
      <h2 ref={ref} tabIndex={-1} className={ui.sectionHeading}>
        {children}
      </h2>
    </div>
  );
}

function SurveyStep({ subscription, initial, onDone, total }: { subscription: Subscription; initial: CancellationSurvey | null; onDone: (survey: CancellationSurvey) => void; total: number }) {
  const survey = useZodForm({
    schema: cancellationSurveySchema,
    defaultValues: initial ?? { reasonText: '' },
    fieldIds: { reasonCode: 'reason', reasonText: 'reason-text' },
  });
  const reason = survey.value('reasonCode');
  const errors = survey.errors;
  return (
    <Form className={ui.panel} onSubmit={survey.handleSubmit(onDone)} errors={survey.summary}>
      <StepHeading step={1} total={total}>
        Hvorfor vil du si opp?
      </StepHeading>
      <p className={ui.muted}>Svaret hjelper oss å lage en bedre avis. Velg det som passer best.</p>
      <fieldset id="reason" className={form.fieldset} aria-describedby={errors.reasonCode ? 'reason-error' : undefined}>
        <legend className="visually-hidden">Årsak</legend>
        {cancellationReasonsFor(subscription).map((code) => (
          <label key={code} className={form.choice}>
            <input type="radio" value={code} {...survey.register('reasonCode')} />
            <span>{cancellationReasons[code]}</span>
          </label>
        ))}
        {errors.reasonCode ? (
          <p id="reason-error" className={form.error}>
            {errors.reasonCode}
          </p>
        ) : null}
      </fieldset>
      {reason === 'OTHER' ? (
        <Field
          id="reason-text"
          label="Beskrivelse"
          error={errors.reasonText}
          input={<textarea id="reason-text" className={form.textarea} {...fieldAria('reason-text', { error: errors.reasonText })} {...survey.register('reasonText')} />}
        />
      ) : null}
      <div className={ui.actions}>
        <button type="submit" className={`${button.button} ${button.primary}`}>
          Neste
        </button>
        <HomeLink variant="secondary">Avbryt</HomeLink>
      </div>
    </Form>
  );
}

/** SPEC §2 /avslutt-abonnement: reason survey, the one retention offer, then a clear final confirm. */
export function CancelSubscriptionPage() {
  const subscription = useCurrentSubscription();
  const today = useToday();
  const navigate = useNavigate();
  const update = useSubscriptionUpdate();
  const [step, setStep] = useState<Step>('survey');
  const [survey, setSurvey] = useState<CancellationSurvey | null>(null);
  const offerQuery = useQuery({ ...retentionOfferQueryOptions(subscription ?? { ariaAccountNo: 0, titleCode: '' }), enabled: subscription !== null });
  const offer: RetentionOffer | null = offerQuery.data ?? null;

  const mutation = useMutation({
    mutationFn: (actionType: CancellationActionType) => {
      if (!subscription || !survey) throw new Error('no survey');
      return deleteSubscription({
        ariaAccountNo: subscription.ariaAccountNo,
        titleCode: subscription.titleCode,
        actionType,
        ...(actionType === 'REPLACEMENT-ANN' && offer ? { offerCode: offer.code } : {}),
        ...survey,
      });
    },
    onSuccess: (result) => {
      update(result.subscription);
      if (result.actionType === 'CANCELLATION') {
        const receipt: CancelledState = { creditedInvoices: result.creditedInvoices };
        void navigate(pathTo('subscriptionCancelled'), { state: receipt });
      } else {
        const notice: HomeNotice = { notice: `Så hyggelig at du blir! Tilbudet «${offer?.headline ?? ''}» er registrert.` };
        void navigate(pathTo('home'), { state: notice });
      }
    },
  });

  if (!subscription) return null;
  const decision = decideTransition(subscription, 'cancel', today);
  // Issue 25.2: the paid period's last day, and the renewal day after it.
  const end = formatLongDate(lastDayWithAccess(subscription.currentPeriodEnd));
  const renews = formatLongDate(renewalDay(subscription.currentPeriodEnd));
  const total = offer ? 3 : 2;

  if (!decision.allowed) {
    return (
      <Page title={pages.cancelSubscription.title}>
        <NoticePanel actions={<HomeAndCustomerServiceLinks />}>{decision.message}</NoticePanel>
      </Page>
    );
  }

  const error = <ErrorAlert error={mutation.error} />;

  return (
    <Page title={pages.cancelSubscription.title} lead={`Vi er lei oss for at du vil gå. ${subscription.planName} løper ut perioden du har betalt for, til og med ${end}.`}>
      <div className={`${ui.stack} ${ui.narrow}`}>
        {step === 'survey' ? (
          <SurveyStep
            subscription={subscription}
            initial={survey}
            total={total}
            onDone={(answer) => {
              setSurvey(answer);
              setStep(offer ? 'offer' : 'confirm');
            }}
          />
        ) : null}

        {step === 'offer' && offer ? (
          <section className={ui.panelAccent} aria-labelledby="tilbud">
            <StepHeading step={2} total={total}>
              Før du går: et tilbud til deg
            </StepHeading>
            <div className={ui.stack}>
              <h3 id="tilbud" className={ui.panelHeading}>
                {offer.headline}
              </h3>
              <p className={ui.text}>{offer.description}</p>
              {offer.plan ? (
                <p className={ui.text}>
                  Ny pris: {priceLabel(offer.plan.priceOre, offer.plan.billingPeriod)} fra {renews}.
                </p>
              ) : null}
            </div>
            {error}
            <div className={ui.actions}>
              <button type="button" className={`${button.button} ${button.primary} ${ui.button}`} disabled={mutation.isPending} onClick={() => mutation.mutate('REPLACEMENT-ANN')}>
                {mutation.isPending ? 'Registrerer …' : 'Ja takk, jeg tar tilbudet'}
              </button>
              <button type="button" className={`${button.button} ${button.secondary}`} disabled={mutation.isPending} onClick={() => setStep('confirm')}>
                Nei takk, fortsett oppsigelsen
              </button>
            </div>
          </section>
        ) : null}

        {step === 'confirm' ? (
          <section className={ui.panel}>
            <StepHeading step={total} total={total}>
              Bekreft oppsigelsen
            </StepHeading>
            <ul className={ui.text}>
              <li>
                {subscription.planName} sies opp, og du betaler ikke mer etter {end}.
              </li>
              <li>Du har tilgang som før til og med {end}.</li>
              <li>Ombestemmer du deg, kan du angre oppsigelsen her på Min Side fram til da.</li>
            </ul>
            {error}
            <div className={ui.actions}>
              <button type="button" className={`${button.button} ${ui.danger} ${ui.button}`} disabled={mutation.isPending} onClick={() => mutation.mutate('CANCELLATION')}>
                {mutation.isPending ? 'Sier opp …' : 'Bekreft oppsigelse'}
              </button>
              <button type="button" className={`${button.button} ${button.secondary}`} disabled={mutation.isPending} onClick={() => setStep('survey')}>
                Tilbake
              </button>
              <HomeLink variant="secondary">Behold abonnementet</HomeLink>
            </div>
          </section>
        ) : null}
      </div>
    </Page>
  );
}
