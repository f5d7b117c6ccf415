import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from '../../../lib/router/index.ts';
import { z } from 'zod';
import {
  addMonths,
  deliveryAddressInputSchema,
  formatKroner,
  formatLongDate,
  orderErrorCodes,
  osloToday,
  priceOutlook,
  requiredMessage,
  systemClock,
  withdrawalTexts,
  type DeliveryAddressInput,
  type InvoicePaymentMethod,
  type OrderOffer,
  type OrderState,
} from '@minside/domain';
import { pages, pathTo, redirects } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { Field, fieldAria } from '../../../components/field.tsx';
import { Form } from '../../../components/form.tsx';
import form from '../../../components/form.module.css';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { isApiError } from '../../../lib/http.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { useSessionAccount, useSessionUser } from '../../auth/index.ts';
import { goToProvider } from '../../billing/index.ts';
import { AddressFields, addressFieldIds, emptyAddress } from '../../delivery/index.ts';
import { useTitle } from '../../titles/index.ts';
import { AgeVerificationButton } from '../components/age-verification-button.tsx';
import { createAccount, createOrder, ORDER_CALL_TIMEOUT_MS, startOrderPayment, useOffers, useOrder } from '../api/orders.ts';
import { OrderSummary } from '../components/order-summary.tsx';
import styles from '../components/ordering.module.css';
import { clearDraft, draftFor, saveDraft } from '../order-draft.ts';

const closedStates: readonly OrderState[] = ['cancelled', 'failed', 'timed_out'];

/** The terms the purchase is made on: the business terms for a business plan, else the subscription terms. */
function termsPath(ariaPlanID: string): string {
  return ariaPlanID.includes('BEDRIFT') ? pathTo('businessTerms') : pathTo('terms');
}

type Step = 'choose' | 'address' | 'summary';

/**
 * "Steg 2: Leveringsadresse". No total: how many steps there are depends on the product (paper
 * asks for an address), and a total that changed with the choice was read as a jump (issue 25.8).
 */
function stepLabel(step: number, name: string): string {
  return `Steg ${step}: ${name}`;
}

const birthdateHint = 'Du må være minst 18 år for å kjøpe abonnement. Ung er for deg under 34 år.';

/**
 * Step 1: an offer that is on the list, and a birthdate when the profile has none (the server
 * checks the age with it, SPEC §5). Only the browser checks that they are there.
 */
function choiceSchema(isOffered: (ariaPlanID: string) => boolean, birthdateRequired: boolean) {
  return z.object({
    ariaPlanID: z.string().refine(isOffered, 'Velg et abonnement.'),
    birthdate: birthdateRequired ? z.string().regex(/^\d{4}-\d{2}-\d{2}$/, requiredMessage('Fødselsdato')) : z.string(),
  });
}

const perPeriod: Record<string, string> = { MONTH: 'per måned', MONTH_PREMIUM: 'per måned', QUARTER: 'per kvartal', YEAR: 'per år' };

function OfferChoice({ offer, checked, onChoose }: { offer: OrderOffer; checked: boolean; onChoose: () => void }) {
  const id = useId();
  const { plan, quote, unavailable } = offer;
  const later = `${formatKroner(quote.priceLaterOre)} ${perPeriod[plan.billingPeriod] ?? ''}`;
  // An announced price change still to come (/nye-priser), said before the buyer chooses.
  const announced = priceOutlook(plan, osloToday(systemClock())).then;
  return (
    <label className={styles.offer} htmlFor={id}>
      <input id={id} type="radio" name="plan" value={plan.ariaPlanID} checked={checked} disabled={unavailable !== null} onChange={onChoose} aria-describedby={`${id}-text`} />
      <span className={styles.offerBody} id={`${id}-text`}>
        <span className={styles.offerName}>
          {plan.name} – {plan.billingPeriod === 'YEAR' ? 'årlig' : plan.billingPeriod === 'QUARTER' ? 'kvartalsvis' : 'månedlig'}
        </span>
        <span className={ui.text}>{plan.description}</span>
        {quote.offerLabel ? <span className={styles.badge}>{quote.offerLabel}</span> : null}
        <span className={styles.price}>{quote.offerCode ? `${formatKroner(quote.amountNowOre)} nå, deretter ${later}` : later}</span>
        {announced ? (
          <span className={styles.announced}>
            Ny pris fra {formatLongDate(announced.from)}: {formatKroner(announced.priceOre)} {perPeriod[plan.billingPeriod] ?? ''}
          </span>
        ) : null}
        {unavailable ? <span className={styles.reason}>{unavailable.message}</span> : null}
      </span>
    </label>
  );
}

/**
 * SPEC §2 /bestill-abonnement: choose a product and period (the §9 offers priced by the
 * server), give a birthdate when the profile has none (§5), a delivery address for paper,
 * see the price now and later, then pay with Vipps or card at the provider. `?kampanje=`
 * carries the campaign code, `?tilbud=winback` the winback, `?ordre=` resumes an order.
 */
export function OrderSubscriptionPage() {
  const title = useTitle();
  const user = useSessionUser();
  const account = useSessionAccount();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const campaign = search.get('kampanje') ?? search.get('campaign') ?? '';
  const winback = search.get('tilbud') === 'winback' ? (search.get('token') ?? 'signed-in') : '';
  const resumeId = search.get('ordre');
  const offers = useOffers(title.titleCode, campaign, winback);
  const resumed = useOrder(resumeId);
  const [step, setStep] = useState<Step>('choose');
  const [deliveryAddress, setDeliveryAddress] = useState<DeliveryAddressInput | null>(null);
  const [payError, setPayError] = useState<string | null>(null);
  const [ageVerification, setAgeVerification] = useState(false);
  const [paying, setPaying] = useState<InvoicePaymentMethod | null>(null);
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const id = useId();
  const ids = { offers: `${id}-offers`, birthdate: `${id}-birthdate`, address: `${id}-address` };
  const birthdateRequired = offers.data?.birthdateRequired ?? false;
  const choice = useZodForm({
    schema: choiceSchema((ariaPlanID) => offers.data?.offers.some((candidate) => candidate.plan.ariaPlanID === ariaPlanID) ?? false, birthdateRequired),
    defaultValues: { ariaPlanID: '', birthdate: '' },
    fieldIds: { ariaPlanID: ids.offers, birthdate: ids.birthdate },
  });
  const address = useZodForm({
    schema: deliveryAddressInputSchema,
    defaultValues: { ...emptyAddress, name: user ? `${user.givenName} ${user.familyName}`.trim() : '' },
    fieldIds: addressFieldIds(ids.address, ''),
  });
  const plan = choice.controlled('ariaPlanID');
  const chosen = plan.value || null;

  useEffect(() => {
    if (offers.data?.hasAccess && !resumeId) void navigate(pathTo('alreadySubscriber'), { replace: true });
  }, [offers.data?.hasAccess, resumeId, navigate]);
  useEffect(() => {
    if (resumeId && resumed.data) setStep('summary');
  }, [resumeId, resumed.data]);
  useEffect(() => {
    stepHeading.current?.focus();
  }, [step]);
  const choose = plan.onChange;
  useEffect(() => {
    if (chosen === null && offers.data) {
      const first = offers.data.offers.find((offer) => offer.quote.offerCode !== null && offer.unavailable === null) ?? offers.data.offers.find((offer) => offer.unavailable === null);
      if (first) choose(first.plan.ariaPlanID);
    }
  }, [chosen, offers.data, choose]);

  const offer = offers.data?.offers.find((candidate) => candidate.plan.ariaPlanID === chosen) ?? null;
  const paper = offer?.plan.planProductType === 'COMBO';
  const birthdate = choice.value('birthdate');
  const chooseErrors = choice.errors;

  const pay = async (method: InvoicePaymentMethod) => {
    if (paying) return;
    setPaying(method);
    setPayError(null);
    const timeout = AbortSignal.timeout(ORDER_CALL_TIMEOUT_MS);
    try {
      let orderId = resumeId;
      if (!orderId) {
        if (!offer) return;
        const draft = draftFor(title.titleCode, offer.plan.ariaPlanID);
        if (!account)
          await createAccount(title.titleCode).catch((error: unknown) => {
            if (!(isApiError(error) && error.status === 409)) throw error;
          });
        const validated = paper ? deliveryAddress : null;
        const place = (idempotencyKey: string) =>
          createOrder(
            title.titleCode,
            {
              idempotencyKey,
              ariaPlanID: offer.plan.ariaPlanID,
              ...(campaign ? { campaignCode: campaign } : {}),
              ...(winback ? { winback } : {}),
              ...(birthdateRequired ? { birthdate } : {}),
              ...(validated ? { deliveryAddress: validated } : {}),
            },
            timeout,
          );
        let created = await place(draft.idempotencyKey);
        let kept = draft;
        if (closedStates.includes(created.state)) {
          // The kept key belongs to an order that has ended (cancelled, failed, timed out): this is a new one.
          clearDraft();
          kept = draftFor(title.titleCode, offer.plan.ariaPlanID);
          created = await place(kept.idempotencyKey);
        }
        orderId = created.orderId;
        saveDraft({ ...kept, orderId });
      }
      const redirect = await startOrderPayment(orderId, method);
      if (redirect.redirectUrl.startsWith('/kvittering')) void navigate(redirect.redirectUrl);
      else goToProvider(redirect.redirectUrl);
    } catch (error) {
      setPaying(null);
      if (timeout.aborted) return void navigate(redirects.orderTimeout.pattern);
      if (isApiError(error) && error.code === orderErrorCodes.alreadySubscriber) return void navigate(pathTo('alreadySubscriber'));
      if (isApiError(error) && error.status >= 400 && error.status < 500) {
        setAgeVerification(error.code === orderErrorCodes.ageVerificationRequired);
        return setPayError(error.message);
      }
      void navigate(pathTo('purchaseError'));
    }
  };

  if (offers.isPending || (resumeId && resumed.isPending)) {
    return (
      <Page title={pages.orderSubscription.title}>
        <p className={ui.muted} role="status">
          Henter tilbudene …
        </p>
      </Page>
    );
  }
  if (offers.error || !offers.data) {
    return (
      <Page title={pages.orderSubscription.title}>
        <p className={ui.alert} role="alert">
          Vi fikk ikke hentet tilbudene. Last siden på nytt om litt.
        </p>
      </Page>
    );
  }

  const resumedOrder = resumed.data?.order ?? null;
  const summary = resumedOrder ? (
    <OrderSummary
      planName={resumedOrder.plan.name}
      billingPeriod={resumedOrder.plan.billingPeriod}
      quote={resumedOrder.quote}
      deliveryAddress={resumedOrder.deliveryAddress}
      paperStartsOn={resumedOrder.paperStartsOn}
    />
  ) : offer ? (
    <OrderSummary
      planName={offer.plan.name}
      billingPeriod={offer.plan.billingPeriod}
      quote={offer.quote}
      later={priceOutlook(offer.plan, addMonths(osloToday(systemClock()), offer.quote.firstPeriodMonths))}
      deliveryAddress={paper && deliveryAddress ? { ...deliveryAddress, town: '' } : null}
      paperStartsOn={paper ? offers.data.paperStartsOn : null}
    />
  ) : null;
  const resumedClosed = resumedOrder !== null && !['created', 'awaiting_payment'].includes(resumedOrder.state);

  return (
    <Page title={pages.orderSubscription.title} lead={`Velg abonnementet som passer deg hos ${title.name}.`}>
      <div className={`${ui.stack} ${ui.narrow}`}>
        {offers.data.campaign ? (
          <p className={ui.success} role="status">
            Kampanjekoden {offers.data.campaign.code} er lagt til: {offers.data.campaign.label.toLowerCase()}.
          </p>
        ) : null}
        {offers.data.winback ? (
          <p className={ui.success} role="status">
            Velkommen tilbake! Du får 3 måneder for prisen av 1 på månedsabonnementene.
          </p>
        ) : null}

        {step === 'choose' ? (
          <Form className={`${ui.panel} ${form.form}`} onSubmit={choice.handleSubmit(() => setStep(paper ? 'address' : 'summary'))} errors={choice.summary} aria-labelledby={`${id}-choose`}>
            <p className={form.step}>{stepLabel(1, 'Velg abonnement')}</p>
            <h2 id={`${id}-choose`} className={ui.panelHeading} tabIndex={-1} ref={stepHeading}>
              Velg abonnement
            </h2>
            <fieldset id={ids.offers} className={styles.offers} aria-describedby={chooseErrors.ariaPlanID ? `${ids.offers}-error` : undefined}>
              <legend className={form.legend}>Abonnement og betalingsperiode</legend>
              {offers.data.offers.map((candidate) => (
                <OfferChoice key={candidate.plan.ariaPlanID} offer={candidate} checked={candidate.plan.ariaPlanID === chosen} onChoose={() => choose(candidate.plan.ariaPlanID)} />
              ))}
              {chooseErrors.ariaPlanID ? (
                <p id={`${ids.offers}-error`} className={form.error}>
                  {chooseErrors.ariaPlanID}
                </p>
              ) : null}
            </fieldset>
            {birthdateRequired ? (
              <Field
                id={ids.birthdate}
                label="Fødselsdato"
                hint={birthdateHint}
                error={chooseErrors.birthdate}
                input={
                  <input
                    id={ids.birthdate}
                    type="date"
                    className={form.input}
                    autoComplete="bday"
                    {...fieldAria(ids.birthdate, { hint: birthdateHint, error: chooseErrors.birthdate })}
                    {...choice.register('birthdate')}
                  />
                }
              />
            ) : null}
            <div className={ui.actions}>
              <button type="submit" className={`${button.button} ${button.primary} ${ui.button}`}>
                Gå videre
              </button>
            </div>
          </Form>
        ) : null}

        {step === 'address' ? (
          <Form
            className={`${ui.panel} ${form.form}`}
            onSubmit={address.handleSubmit((values) => {
              setDeliveryAddress(values);
              setStep('summary');
            })}
            errors={address.summary}
            aria-labelledby={`${id}-address-heading`}
          >
            <p className={form.step}>{stepLabel(2, 'Leveringsadresse')}</p>
            <h2 id={`${id}-address-heading`} className={ui.panelHeading} tabIndex={-1} ref={stepHeading}>
              Leveringsadresse
            </h2>
            <p className={ui.text}>Papiravisen kan komme fra {formatLongDate(offers.data.paperStartsOn)}, første utgivelsesdag vi rekker.</p>
            <AddressFields idPrefix={ids.address} field={(name) => ({ registration: address.register(name), error: address.errors[name] })} postalCode={address.value('postalCode')} />
            <div className={ui.actions}>
              <button type="submit" className={`${button.button} ${button.primary} ${ui.button}`}>
                Gå videre
              </button>
              <button type="button" className={`${button.button} ${button.secondary} ${ui.button}`} onClick={() => setStep('choose')}>
                Tilbake
              </button>
            </div>
          </Form>
        ) : null}

        {step === 'summary' ? (
          <section className={ui.panel} aria-labelledby={`${id}-summary`}>
            <p className={form.step}>{resumedOrder ? 'Bestillingen din' : stepLabel(paper ? 3 : 2, 'Oppsummering og betaling')}</p>
            <h2 id={`${id}-summary`} className={ui.panelHeading} tabIndex={-1} ref={stepHeading}>
              Oppsummering
            </h2>
            {summary}
            {resumedClosed ? (
              <p className={ui.text}>
                {resumedOrder?.state === 'fulfilled' ? (
                  <Link to={`${pathTo('receipt')}?orderId=${encodeURIComponent(resumedOrder.orderId)}`}>Bestillingen er fullført. Se kvitteringen.</Link>
                ) : (
                  'Denne bestillingen er avsluttet. Start en ny bestilling.'
                )}
              </p>
            ) : (
              <>
                <div className={styles.terms}>
                  <p className={ui.text}>
                    Ved å betale godtar du <Link to={termsPath(resumedOrder?.plan.ariaPlanID ?? offer?.plan.ariaPlanID ?? '')}>abonnementsvilkårene</Link>. Du kan si opp når du vil, med virkning fra
                    slutten av perioden du har betalt for.
                  </p>
                  <p className={ui.text}>
                    <strong>Angrerett:</strong> {withdrawalTexts.beforeBuying} Du angrer på Min Side under «Angre kjøpet».
                  </p>
                </div>
                <p className={ui.muted}>Du blir sendt videre til betalingstjenesten.</p>
                {payError ? (
                  <p className={ui.alert} role="alert">
                    {payError}
                  </p>
                ) : null}
                {payError && ageVerification ? <AgeVerificationButton /> : null}
                <div className={styles.payButtons}>
                  <button type="button" className={`${button.button} ${button.primary}`} onClick={() => void pay('VIPPS')} disabled={paying !== null}>
                    {paying === 'VIPPS' ? 'Sender deg til Vipps …' : 'Betal med Vipps'}
                  </button>
                  <button type="button" className={`${button.button} ${button.primary}`} onClick={() => void pay('SWEDBANK-PPG')} disabled={paying !== null}>
                    {paying === 'SWEDBANK-PPG' ? 'Sender deg til betaling …' : 'Betal med kort'}
                  </button>
                </div>
                <div className={ui.actions}>
                  {resumedOrder ? (
                    <Link className={`${button.button} ${button.secondary}`} to={`${pathTo('cancelOrder')}?orderId=${encodeURIComponent(resumedOrder.orderId)}`}>
                      Avbryt bestillingen
                    </Link>
                  ) : (
                    <button type="button" className={`${button.button} ${button.secondary} ${ui.button}`} onClick={() => setStep(paper ? 'address' : 'choose')}>
                      Tilbake
                    </button>
                  )}
                </div>
              </>
            )}
          </section>
        ) : null}
        <p className={ui.muted}>
          Har du allerede et abonnement som ikke vises? <Link to={pathTo('connectSubscription')}>Koble det til brukeren din</Link>.
        </p>
      </div>
    </Page>
  );
}
