import {
  orderEligibility,
  orderErrorCodes,
  orderMessages,
  offerLabels,
  osloToday,
  priceOn,
  quoteOrder,
  CAMPAIGN_CODE,
  type OrderOffer,
  type OrderOffersResponse,
  type Plan,
  type Title,
  type WinbackResponse,
} from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { soldPlans } from '../subscription/index.ts';
import type { Winback } from './winback.ts';

/**
 * What a title sells (issue 7), priced by `quoteOrder` for this buyer: the order page's offers, with
 * the campaign and the winback, and the public winback page of a signed link.
 */
export function createOffers(deps: {
  db: Db;
  now: () => Date;
  paperStartOf: (titleCode: string) => string;
  winback: Pick<Winback, 'readWinbackToken' | 'formerSubscriberOf' | 'hasAccessAt' | 'winbackFor'>;
}) {
  const { db, now, paperStartOf } = deps;
  const { readWinbackToken, formerSubscriberOf, hasAccessAt, winbackFor } = deps.winback;
  const today = () => osloToday(now());

  function offerOf(plan: Plan, birthdate: string | null, context: { campaign: boolean; winback: boolean }): OrderOffer {
    const eligibility = orderEligibility(plan, birthdate, today());
    // Without a birthdate every plan waits for one; the form asks, so only the other reasons close a plan here.
    const unavailable = eligibility.eligible || eligibility.code === orderErrorCodes.birthdateRequired ? null : { code: eligibility.code, message: eligibility.message };
    return { plan, quote: quoteOrder(plan, priceOn(plan, today()), context), unavailable };
  }

  /** The plans a buyer can order at a title: sold ones, without those bought only through verification. */
  async function orderablePlans(titleCode: string): Promise<Plan[]> {
    return (await soldPlans(db, titleCode)).filter((plan) => !plan.ariaPlanID.includes('BEDRIFT'));
  }

  /** GET /api/order/offers: what the title sells to this buyer, priced; signed-in or not. */
  async function offers(user: SessionUser | null, title: Title, query: { campaign?: string | undefined; winback?: string | undefined }): Promise<OrderOffersResponse> {
    const campaign = query.campaign?.trim().toUpperCase() === CAMPAIGN_CODE;
    let winback = false;
    if (user && query.winback) {
      try {
        winback = await winbackFor(user, title.titleCode, query.winback);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
      }
    }
    const birthdate = user?.birthdate ?? null;
    const plans = await orderablePlans(title.titleCode);
    return {
      titleCode: title.titleCode,
      offers: plans.map((plan) => offerOf(plan, birthdate, { campaign, winback })),
      campaign: campaign ? { code: CAMPAIGN_CODE, label: offerLabels[CAMPAIGN_CODE] } : null,
      winback,
      hasAccess: user ? await hasAccessAt(user.id, title.titleCode) : false,
      birthdateRequired: user !== null && !user.birthdate,
      paperStartsOn: paperStartOf(title.titleCode),
    };
  }

  /** GET /api/winback: the public offer page, for a signed link or a signed-in former subscriber. */
  async function winbackPage(user: SessionUser | null, title: Title, token: string | undefined): Promise<WinbackResponse> {
    const titleCode = title.titleCode;
    const base = { titleCode, eligible: false, activeSubscriber: false, givenName: null, offer: null, reason: null };
    let who: Awaited<ReturnType<typeof formerSubscriberOf>> | null = null;
    if (token) {
      let link: { ariaAccountNo: number; titleCode: string };
      try {
        link = readWinbackToken(token);
      } catch (error) {
        if (error instanceof AppError) return { ...base, reason: error.message };
        throw error;
      }
      if (link.titleCode !== titleCode) return { ...base, reason: orderMessages.winbackLinkInvalid };
      who = await formerSubscriberOf(db, { ariaAccountNo: link.ariaAccountNo }, titleCode);
      if (user && who.userId !== user.id) who = await formerSubscriberOf(db, { userId: user.id }, titleCode);
    } else if (user) {
      who = await formerSubscriberOf(db, { userId: user.id }, titleCode);
    }
    if (!who) return { ...base, reason: null };
    if (who.active) return { ...base, activeSubscriber: true, givenName: who.givenName };
    if (!who.former) return { ...base, givenName: who.givenName, reason: orderMessages.notEligibleForWinback };
    const plan = (await orderablePlans(titleCode)).find((candidate) => /^[A-Z0-9]+-DIGITAL-M$/.test(candidate.ariaPlanID));
    return { ...base, eligible: true, givenName: who.givenName, offer: plan ? offerOf(plan, user?.birthdate ?? null, { campaign: false, winback: true }) : null };
  }

  return { offerOf, orderablePlans, offers, winbackPage };
}
