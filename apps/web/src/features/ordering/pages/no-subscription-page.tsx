import { Link } from '../../../lib/router/index.ts';
import { formatKroner } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import { Page } from '../../../components/page.tsx';
import button from '../../../components/button.module.css';
import ui from '../../../components/ui.module.css';
import { useSessionUser } from '../../auth/index.ts';
import { useTitle } from '../../titles/index.ts';
import { useOffers } from '../api/orders.ts';
import styles from '../components/ordering.module.css';

/** SPEC §2 /ingen-abonnement: signed in, no subscription on this title — the title's offers and the way to connect one. */
export function NoSubscriptionPage() {
  const title = useTitle();
  const user = useSessionUser();
  const offers = useOffers(title.titleCode);
  const highlighted = (offers.data?.offers ?? []).filter((offer) => offer.plan.billingPeriod !== 'YEAR' && offer.plan.billingPeriod !== 'QUARTER' && offer.unavailable === null).slice(0, 3);
  return (
    <Page title={pages.noSubscription.title} lead={`Hei${user?.givenName ? `, ${user.givenName}` : ''}! Du er logget inn, men har ikke noe abonnement på ${title.name} ennå.`}>
      <div className={`${ui.stack} ${ui.narrow}`}>
        <section className={ui.panelAccent} aria-labelledby="tilbud">
          <h2 id="tilbud" className={ui.panelHeading}>
            Bli abonnent
          </h2>
          {highlighted.length > 0 ? (
            <ul className={styles.offers}>
              {highlighted.map((offer) => (
                <li key={offer.plan.ariaPlanID} className={styles.offer}>
                  <span aria-hidden="true" />
                  <span className={styles.offerBody}>
                    <span className={styles.offerName}>{offer.plan.name}</span>
                    <span className={ui.text}>{offer.plan.description}</span>
                    {offer.quote.offerLabel ? <span className={styles.badge}>{offer.quote.offerLabel}</span> : null}
                    <span className={styles.price}>
                      {offer.quote.offerCode ? `${formatKroner(offer.quote.amountNowOre)} nå, deretter ` : ''}
                      {formatKroner(offer.quote.priceLaterOre)} per måned
                    </span>
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className={ui.text}>Les alle sakene på nett og i appen, og eAvisen hver dag. Den første måneden koster bare 1 kr.</p>
          )}
          <div className={ui.actions}>
            <Link className={`${button.button} ${button.primary}`} to={pathTo('orderSubscription')}>
              Se tilbud og bestill
            </Link>
          </div>
        </section>
        <section className={ui.panel} aria-labelledby="har-allerede">
          <h2 id="har-allerede" className={ui.panelHeading}>
            Har du allerede et abonnement?
          </h2>
          <p className={ui.text}>
            Har du kjøpt abonnement hos kundesenteret, på papir eller med en annen e-postadresse, kan du koble det til brukeren din med abonnementsnummeret og postnummeret, eller telefonnummeret.
          </p>
          <div className={ui.actions}>
            <Link className={`${button.button} ${button.secondary}`} to={pathTo('connectSubscription')}>
              Koble til abonnement
            </Link>
            <Link className={`${button.button} ${button.secondary}`} to={pathTo('student')}>
              Student
            </Link>
            <Link className={`${button.button} ${button.secondary}`} to={pathTo('business')}>
              Bedriftsabonnement
            </Link>
          </div>
        </section>
      </div>
    </Page>
  );
}
