import { instStatusCodes, isBusinessAdmin, isPaperSubscription, lastDayWithAccess, renewalDay, userFacingState, type Subscription } from '@minside/domain';
import { currentPriceLabel, featureLabels, featureOrder, formatLongDate, paymentMethodLabels, periodLabel } from '../labels.ts';
import { StateBadge } from './state-badge.tsx';
import styles from './subscription-summary.module.css';
import ui from '../../../components/ui.module.css';
import { Fact, Facts } from '../../../components/facts.tsx';

function dateFact(subscription: Subscription, today: string): { label: string; value: string } {
  const state = userFacingState(subscription, today);
  // One rule for the two dates (issue 25.2): access runs to the day before the renewal day.
  const lastDay = formatLongDate(lastDayWithAccess(subscription.currentPeriodEnd));
  if (state === 'cancelled') return { label: 'Tilgang til og med', value: lastDay };
  if (state === 'expired') return { label: 'Hadde tilgang til og med', value: lastDay };
  if (subscription.instStatusCode === instStatusCodes.TRIAL) return { label: 'Prøveperioden varer til og med', value: lastDay };
  if (subscription.sharedFrom) return { label: 'Gjelder til og med', value: lastDay };
  return { label: 'Neste fornyelse', value: formatLongDate(renewalDay(subscription.currentPeriodEnd)) };
}

function priceFact(subscription: Subscription, today: string): string {
  if (subscription.sharedFrom) return `Inkludert, betales av ${subscription.sharedFrom.ownerName}`;
  return currentPriceLabel(subscription, today);
}

/** SPEC §3/§4 at a glance: plan, what it includes, period, price, the next date, payment, state. */
export function SubscriptionSummary({ subscription, today }: { subscription: Subscription; today: string }) {
  const state = userFacingState(subscription, today);
  const date = dateFact(subscription, today);
  const product = isPaperSubscription(subscription) ? 'Papiravis og digital' : 'Digital';
  return (
    <section className={styles.summary} aria-labelledby="abonnementet-ditt">
      <div className={styles.head}>
        <div className={styles.titles}>
          <p className={ui.eyebrow}>Abonnementet ditt</p>
          <h2 id="abonnementet-ditt" className={ui.sectionHeading}>
            {subscription.planName}
          </h2>
          <p className={ui.muted}>
            {product}
            {subscription.sharedFrom ? ` · delt med deg av ${subscription.sharedFrom.ownerName}` : ''}
            {isBusinessAdmin(subscription) && subscription.companyDomain ? ` · bedriftsabonnement for ${subscription.companyDomain}, du er administrator` : ''}
          </p>
        </div>
        <StateBadge state={state} trial={subscription.instStatusCode === instStatusCodes.TRIAL} />
      </div>

      <Facts>
        <Fact label="Betalingsperiode">{periodLabel(subscription.billingPeriod)}</Fact>
        <Fact label="Pris">{priceFact(subscription, today)}</Fact>
        <Fact label={date.label}>{date.value}</Fact>
        {subscription.sharedFrom ? null : <Fact label="Betalingsmåte">{paymentMethodLabels[subscription.paymentMethod]}</Fact>}
      </Facts>

      {state === 'expired' ? (
        <HadFeatures subscription={subscription} />
      ) : (
        <div className={styles.included}>
          <h3 className={styles.includedHeading}>Dette er inkludert</h3>
          <ul className={styles.features}>
            {featureOrder.map((feature) => {
              const included = subscription.features[feature];
              return (
                <li key={feature} className={included ? styles.feature : `${styles.feature} ${styles.excluded}`}>
                  <span className={styles.mark} aria-hidden="true">
                    {included ? '✓' : '–'}
                  </span>
                  <span>
                    <strong>{featureLabels[feature].label}</strong>
                    <span className="visually-hidden">{included ? ': inkludert.' : ': ikke inkludert.'}</span>
                    {included ? <span className={styles.featureText}> {featureLabels[feature].text}</span> : null}
                  </span>
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </section>
  );
}

/**
 * An expired subscription includes nothing any more (issue 25.4): what the subscriber had,
 * without a tick, and the way back beside it (the state panel's "Start abonnementet igjen",
 * or for a share that has ended, an order of their own).
 */
function HadFeatures({ subscription }: { subscription: Subscription }) {
  const had = featureOrder.filter((feature) => subscription.features[feature]);
  if (had.length === 0) return null;
  return (
    <div className={styles.included}>
      <h3 className={styles.includedHeading}>Dette hadde du</h3>
      <p className={ui.muted}>
        {subscription.sharedFrom
          ? 'Delingen er avsluttet, så du har ikke tilgang til dette nå.'
          : `Abonnementet er ikke aktivt, så du har ikke tilgang til dette nå. Starter du ${subscription.planName} igjen, får du alt tilbake med en gang.`}
      </p>
      <ul className={styles.features}>
        {had.map((feature) => (
          <li key={feature} className={`${styles.feature} ${styles.excluded}`}>
            <span className={styles.mark} aria-hidden="true">
              –
            </span>
            <span>
              <strong>{featureLabels[feature].label}</strong>
              <span className="visually-hidden">: hadde du, ikke tilgang nå.</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
