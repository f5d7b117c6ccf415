import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from '../../../lib/router/index.ts';
import { z } from 'zod';
import { formatKroner, formatLongDate, lostFeatures, planErrorCodes, priceOutlook, requiredMessage, type PlanOption, type Subscription } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Form } from '../../../components/form.tsx';
import { HomeAndCustomerServiceLinks, HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import { NoticePanel } from '../../../components/panel.tsx';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { planOptionsQueryOptions } from '../api/get-plan-options.ts';
import { changePlan } from '../api/mutations.ts';
import form from '../../../components/form.module.css';
import ui from '../../../components/ui.module.css';
import { currentPriceLabel, featureLabels, featureOrder, periodLabel, priceLabel, priceOutlookLabel } from '../labels.ts';
import { useCurrentSubscription, useSubscriptionUpdate, useToday } from '../use-subscription.ts';
import type { ReceiptState } from './change-subscription-receipt-page.tsx';
import styles from './change-subscription-page.module.css';

// Only the browser checks that a plan is chosen: the server's answer to a plan is the plan's own.
const choiceSchema = z.object({ ariaPlanID: z.string({ error: requiredMessage('Abonnement') }).min(1, requiredMessage('Abonnement')) });
type Choice = z.infer<typeof choiceSchema>;

/** Refusals that concern one plan and this subscriber's age: the other plans stay open. */
const ageCodes: ReadonlySet<string> = new Set([planErrorCodes.ungAgeLimit, planErrorCodes.birthdateRequired, planErrorCodes.underMinimumAge, planErrorCodes.planMinimumAge]);

/** The announced price still to come when the change takes effect (domain `priceOutlook`), as one sentence. */
function nextPriceText(option: PlanOption): string {
  const { then } = priceOutlook(option.plan, option.quote.effectiveOn);
  return then ? ` Ny pris fra ${formatLongDate(then.from)}: ${formatKroner(then.priceOre)}.` : '';
}

/** What choosing an option means, in one sentence. */
function effectText(option: PlanOption, subscription: Subscription): string {
  const { quote } = option;
  switch (quote.kind) {
    case 'current':
      if (subscription.pendingChange) return `Dette har du nå. Velg det for å angre byttet til ${subscription.pendingChange.planName}.`;
      if (subscription.instStatusCode === 2) return 'Dette har du nå. Velg det for å fortsette som før.';
      return 'Dette har du nå.';
    case 'upgrade':
      return quote.amountOre > 0
        ? `Gjelder fra i dag. Du betaler ${formatKroner(quote.amountOre)} for de ${quote.daysLeft} dagene som er igjen av perioden.`
        : 'Gjelder fra i dag, uten noe ekstra å betale for denne perioden.';
    case 'downgrade':
      return `Gjelder fra ${formatLongDate(quote.effectiveOn)}. Ingenting å betale nå.`;
    case 'afterTrial':
      return `Starter når prøveperioden er over, ${formatLongDate(quote.effectiveOn)}.`;
  }
}

/**
 * "Dette mister du" (issue 25.3): the features of the subscription today that the chosen plan
 * does not have, from the catalogue's feature set, with the day the loss takes effect.
 */
function LossBox({ option, subscription }: { option: PlanOption; subscription: Subscription }) {
  const lost = lostFeatures(subscription.features, option.plan.features);
  if (lost.length === 0 || option.quote.kind === 'current') return null;
  const from = option.quote.kind === 'upgrade' ? 'Fra i dag' : `Fra ${formatLongDate(option.quote.effectiveOn)}`;
  return (
    <section className={styles.losses} aria-labelledby="dette-mister-du">
      <h3 id="dette-mister-du" className={styles.lossesHeading}>
        Dette mister du
      </h3>
      <p className={ui.text}>
        {from} har {option.plan.name} ikke dette, som du har i {subscription.planName} i dag:
      </p>
      <ul className={styles.lossList}>
        {lost.map((feature) => (
          <li key={feature}>
            <strong>{featureLabels[feature].label}</strong> – {featureLabels[feature].lost}
          </li>
        ))}
      </ul>
    </section>
  );
}

function groupByProduct(options: PlanOption[]): { name: string; description: string; options: PlanOption[] }[] {
  const groups: { name: string; description: string; options: PlanOption[] }[] = [];
  for (const option of options) {
    const group = groups.find((candidate) => candidate.name === option.plan.name);
    if (group) group.options.push(option);
    else groups.push({ name: option.plan.name, description: option.plan.description, options: [option] });
  }
  return groups;
}

/** SPEC §2 /endre-abonnement: the title's plans with prices per period; upgrade now, downgrade from the period end. */
export function ChangeSubscriptionPage() {
  const subscription = useCurrentSubscription();
  const navigate = useNavigate();
  const update = useSubscriptionUpdate();
  const ref = subscription ?? { ariaAccountNo: 0, titleCode: '' };
  const { data: options, error: loadError, isPending } = useQuery({ ...planOptionsQueryOptions(ref), enabled: subscription !== null });
  // The plans are grouped by product, each its own group of choices: "Abonnement er påkrevd" leads to the first that can be chosen.
  const firstOpen = options?.find((option) => !option.unavailable);
  const choiceId = firstOpen ? `plan-${firstOpen.plan.ariaPlanID}` : 'plan-choice';
  const choice = useZodForm({ schema: choiceSchema, defaultValues: {}, fieldIds: { ariaPlanID: choiceId } });
  const chosenId = choice.value('ariaPlanID');
  const today = useToday();
  const mutation = useMutation({
    mutationFn: (values: Choice) => changePlan(ref, values.ariaPlanID),
    onSuccess: (receipt) => {
      update(receipt.subscription);
      const state: ReceiptState = { receipt };
      void navigate(pathTo('changeSubscriptionReceipt'), { state });
    },
  });
  if (!subscription) return null;

  const current = `${subscription.planName}, ${periodLabel(subscription.billingPeriod).toLowerCase()}, ${currentPriceLabel(subscription, today)}`;
  const blocked = options && options.length > 0 && options.every((option) => option.unavailable && !ageCodes.has(option.unavailable.code)) ? options[0]?.unavailable : null;
  const chosen = options?.find((option) => option.plan.ariaPlanID === chosenId);
  const digitalInstead = options?.find((option) => /-DIGITAL-M$/.test(option.plan.ariaPlanID) && !option.unavailable);
  const choiceError = choice.errors.ariaPlanID;

  return (
    <Page title={pages.changeSubscription.title} lead={`Du har ${current}. Velg hva du vil bytte til.`}>
      <div className={`${ui.stack} ${styles.layout}`}>
        {subscription.pendingChange ? (
          <p className={ui.success} role="status">
            Du har bestilt bytte til {subscription.pendingChange.planName} fra {formatLongDate(subscription.pendingChange.on)}.
          </p>
        ) : null}
        {isPending ? <p className={ui.muted}>Henter abonnementene …</p> : null}
        <ErrorAlert error={loadError} fallback="Vi fikk ikke hentet abonnementene akkurat nå." />
        {blocked ? <NoticePanel actions={<HomeAndCustomerServiceLinks />}>{blocked.message}</NoticePanel> : null}
        {options && !blocked ? (
          <Form className={form.form} onSubmit={choice.handleSubmit((values) => mutation.mutate(values))} errors={choice.summary}>
            {groupByProduct(options).map((group) => (
              <div key={group.name} className={ui.panel}>
                <fieldset className={form.fieldset}>
                  <legend className={styles.productName}>{group.name}</legend>
                  <p className={ui.muted}>{group.description}</p>
                  <ul className={styles.features} aria-label={`Dette er inkludert i ${group.name}`}>
                    {featureOrder
                      .filter((feature) => group.options[0]?.plan.features[feature])
                      .map((feature) => (
                        <li key={feature}>{featureLabels[feature].label}</li>
                      ))}
                  </ul>
                  {group.options.map((option) => {
                    const id = `plan-${option.plan.ariaPlanID}`;
                    return (
                      <div key={option.plan.ariaPlanID} className={styles.option}>
                        <label className={form.choice} htmlFor={id}>
                          <input
                            id={id}
                            type="radio"
                            value={option.plan.ariaPlanID}
                            disabled={option.unavailable !== null}
                            aria-describedby={choiceError ? `${id}-effect plan-choice-error` : `${id}-effect`}
                            {...choice.register('ariaPlanID')}
                          />
                          <span className={styles.optionText}>
                            <span className={styles.optionHead}>
                              <strong>{periodLabel(option.plan.billingPeriod)}</strong>
                              <span>{priceLabel(option.plan.priceOre, option.plan.billingPeriod)}</span>
                            </span>
                            <span id={`${id}-effect`} className={form.hint}>
                              {option.unavailable ? option.unavailable.message : effectText(option, subscription)}
                              {nextPriceText(option)}
                            </span>
                          </span>
                        </label>
                        {option.unavailable?.code === planErrorCodes.ungAgeLimit && digitalInstead ? (
                          <button type="button" className={`${button.link} ${styles.indent}`} onClick={() => choice.setValue('ariaPlanID', digitalInstead.plan.ariaPlanID)}>
                            Velg {digitalInstead.plan.name} i stedet
                          </button>
                        ) : null}
                      </div>
                    );
                  })}
                </fieldset>
              </div>
            ))}
            {choiceError ? (
              <p id="plan-choice-error" className={form.error}>
                {choiceError}
              </p>
            ) : null}
            <div className={`${ui.panel} ${styles.confirm}`}>
              <p className={ui.text} aria-live="polite">
                {chosen ? `Du har valgt ${chosen.plan.name}, ${periodLabel(chosen.plan.billingPeriod).toLowerCase()}. ${effectText(chosen, subscription)}` : 'Velg et abonnement over.'}
              </p>
              {chosen ? <p className={ui.text}>Pris: {priceOutlookLabel(priceOutlook(chosen.plan, chosen.quote.effectiveOn), chosen.plan.billingPeriod)}.</p> : null}
              {chosen ? <LossBox option={chosen} subscription={subscription} /> : null}
              <ErrorAlert error={mutation.error} />
              <div className={ui.actions}>
                <button type="submit" className={`${button.button} ${button.primary} ${ui.button}`} disabled={mutation.isPending}>
                  {mutation.isPending ? 'Bytter …' : 'Bekreft bytte'}
                </button>
                <HomeLink variant="secondary">Avbryt</HomeLink>
              </div>
            </div>
          </Form>
        ) : null}
      </div>
    </Page>
  );
}
