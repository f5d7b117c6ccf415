import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  accountErrorCodes,
  accountErrorMessages,
  FALLBACK_TITLE_CODE,
  identityIdKey,
  osloToday,
  sharedStatusOn,
  type Account,
  type PaymentMethod,
  type Subscription,
  type User,
  systemClock,
} from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { hotRead } from '../../db/hot-read.ts';
import { account, appUser, subscription } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { notFound } from '../../plugins/errors.ts';

type UserRow = typeof appUser.$inferSelect;
export type AccountRow = typeof account.$inferSelect;
type SubscriptionRow = typeof subscription.$inferSelect;

/** SPEC §3 User on the wire: the identity id is named after the provider (`spidId`). */
export function toUserDto(user: UserRow, identityProviderName: string): User {
  const displayName = `${user.givenName} ${user.familyName}`.trim() || user.email;
  return {
    sp_id: user.id,
    [identityIdKey(identityProviderName)]: user.identitySub,
    displayName,
    givenName: user.givenName,
    familyName: user.familyName,
    phoneNumber: user.phoneNumber,
    email: user.email,
  };
}

export function toAccountDto(row: AccountRow, user: UserRow, identityProviderName: string): Account {
  return {
    ariaAccountNo: row.ariaAccountNo,
    accountBalance: row.accountBalanceOre,
    firstTitleCode: row.firstTitleCode,
    [identityIdKey(identityProviderName)]: user.identitySub,
  };
}

export function toSubscriptionDto(row: SubscriptionRow, ownerName: string | null): Subscription {
  return {
    id: row.id,
    ariaAccountNo: row.ariaAccountNo,
    titleCode: row.titleCode,
    ariaPlanID: row.ariaPlanId,
    planName: row.planName,
    planProductType: row.planProductType as Subscription['planProductType'],
    eligibleForSharing: row.eligibleForSharing,
    instStatusCode: row.instStatusCode,
    subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: row.subscriptionInfo1 },
    billingPeriod: row.billingPeriod,
    priceOre: row.priceOre,
    introductoryPrice: row.introPriceOre !== null && row.introMonths !== null && row.introEndsOn !== null ? { priceOre: row.introPriceOre, months: row.introMonths, endsOn: row.introEndsOn } : null,
    paymentMethod: row.paymentMethod as PaymentMethod,
    features: row.features,
    startedOn: row.startedOn,
    currentPeriodEnd: row.currentPeriodEnd,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
    pendingChange: row.pendingPlanId && row.pendingPlanName && row.pendingChangeOn ? { ariaPlanID: row.pendingPlanId, planName: row.pendingPlanName, on: row.pendingChangeOn } : null,
    sharedFrom: ownerName === null ? null : { ownerName },
    companyDomain: row.companyDomain,
    maxMembers: row.maxMembers,
  };
}

function unknownTitle(): AppError {
  return new AppError(400, accountErrorCodes.unknownTitle, accountErrorMessages.unknownTitle);
}

export interface AccountService {
  /** The user's own account, if they have one. */
  accountOf(userId: string): Promise<AccountRow | undefined>;
  /** GET account/{id}: only the caller's own; any other id is 404, exactly like a missing one. */
  getOwnAccount(userId: string, ariaAccountNo: number): Promise<AccountRow>;
  createAccount(userId: string, input: { accountBalance: number; firstTitleCode: string; identityId: string | undefined }): Promise<number>;
  updateAccount(userId: string, input: { ariaAccountNo: number; firstTitleCode: string }): Promise<AccountRow>;
  /** GET subscription/{accountNo}/{titleCode}, with the same ownership rule. */
  getOwnSubscription(userId: string, ariaAccountNo: number, titleCode: string): Promise<Subscription>;
  /**
   * The subscription a session shows on a title. On the group fallback title (POL), which is
   * no newspaper of its own, it is the subscription at the account's first title, else the newest.
   */
  subscriptionForTitle(accountRow: AccountRow, titleCode: string): Promise<Subscription | null>;
}

export function createAccountService(deps: { db: Db; isOfferedTitle: (code: string) => boolean; now?: () => Date }): AccountService {
  const { db } = deps;
  const now = deps.now ?? systemClock;
  const owner = alias(subscription, 'owner_subscription');
  const ownerAccount = alias(account, 'owner_account');
  const ownerUser = alias(appUser, 'owner_user');
  // Of the owner's subscription only what a share's status depends on (ADR 010): fewer columns to decode per row.
  const shownColumns = {
    subscription,
    ownerId: owner.id,
    ownerStatusCode: owner.instStatusCode,
    ownerPeriodEnd: owner.currentPeriodEnd,
    ownerGiven: ownerUser.givenName,
    ownerFamily: ownerUser.familyName,
  };
  type ShownRow = {
    subscription: SubscriptionRow;
    ownerId: string | null;
    ownerStatusCode: number | null;
    ownerPeriodEnd: string | null;
    ownerGiven: string | null;
    ownerFamily: string | null;
  };

  function toShown(row: ShownRow, today: string): Subscription {
    const ownerStatus = row.ownerId !== null && row.ownerStatusCode !== null && row.ownerPeriodEnd !== null ? { instStatusCode: row.ownerStatusCode, currentPeriodEnd: row.ownerPeriodEnd } : null;
    // A share has access only while its owner's subscription has: shown as the owner's decides (ADR 010).
    const shown = row.subscription.sharedFromSubscriptionId ? { ...row.subscription, ...sharedStatusOn(row.subscription, ownerStatus, today) } : row.subscription;
    const ownerName = row.ownerGiven === null ? null : `${row.ownerGiven} ${row.ownerFamily ?? ''}`.trim();
    // An owner that is gone (erased) still leaves the row a share: it says so instead of looking like an own subscription.
    return toSubscriptionDto(shown, ownerName ?? (row.subscription.sharedFromSubscriptionId ? 'en annen abonnent' : null));
  }

  async function withOwnerName(where: SQL | undefined): Promise<Subscription[]> {
    const rows = await db
      .select(shownColumns)
      .from(subscription)
      .leftJoin(owner, eq(owner.id, subscription.sharedFromSubscriptionId))
      .leftJoin(ownerAccount, eq(ownerAccount.ariaAccountNo, owner.ariaAccountNo))
      .leftJoin(ownerUser, eq(ownerUser.id, ownerAccount.userId))
      .where(where)
      .orderBy(desc(subscription.startedOn));
    const today = osloToday(now());
    return rows.map((row) => toShown(row, today));
  }

  // The home page's call (GET subscription/{accountNo}/{titleCode}): ownership and the subscription in one
  // round trip, built and named once (PostgreSQL keeps the plan per connection), read without drizzle's
  // row mapper (db/hot-read.ts: the owner's columns are flat, so no joined object is left to nullify).
  const ownSubscription = hotRead(
    db,
    'own_subscription',
    db
      .select(shownColumns)
      .from(subscription)
      .innerJoin(account, and(eq(account.ariaAccountNo, subscription.ariaAccountNo), eq(account.userId, sql.placeholder('userId'))))
      .leftJoin(owner, eq(owner.id, subscription.sharedFromSubscriptionId))
      .leftJoin(ownerAccount, eq(ownerAccount.ariaAccountNo, owner.ariaAccountNo))
      .leftJoin(ownerUser, eq(ownerUser.id, ownerAccount.userId))
      .where(and(eq(subscription.ariaAccountNo, sql.placeholder('ariaAccountNo')), eq(subscription.titleCode, sql.placeholder('titleCode')))),
  );

  // The session's subscription on a (non-fallback) title: the same row by its unique key.
  const subscriptionAtTitle = db
    .select(shownColumns)
    .from(subscription)
    .leftJoin(owner, eq(owner.id, subscription.sharedFromSubscriptionId))
    .leftJoin(ownerAccount, eq(ownerAccount.ariaAccountNo, owner.ariaAccountNo))
    .leftJoin(ownerUser, eq(ownerUser.id, ownerAccount.userId))
    .where(and(eq(subscription.ariaAccountNo, sql.placeholder('ariaAccountNo')), eq(subscription.titleCode, sql.placeholder('titleCode'))))
    .prepare('subscription_at_title');

  async function getOwnAccount(userId: string, ariaAccountNo: number): Promise<AccountRow> {
    const [row] = await db
      .select()
      .from(account)
      .where(and(eq(account.ariaAccountNo, ariaAccountNo), eq(account.userId, userId)));
    if (!row) throw notFound();
    return row;
  }

  return {
    async accountOf(userId) {
      const [row] = await db.select().from(account).where(eq(account.userId, userId));
      return row;
    },

    getOwnAccount,

    async createAccount(userId, input) {
      if (input.accountBalance !== 0) {
        throw new AppError(400, accountErrorCodes.invalidAccountBalance, accountErrorMessages.invalidAccountBalance);
      }
      if (!deps.isOfferedTitle(input.firstTitleCode)) throw unknownTitle();
      const [user] = await db.select().from(appUser).where(eq(appUser.id, userId));
      // Another user's identity id is "not found", like every id that is not the caller's.
      if (input.identityId !== undefined && input.identityId !== user?.identitySub) throw notFound();
      const [created] = await db
        .insert(account)
        .values({ userId, firstTitleCode: input.firstTitleCode.toUpperCase(), accountBalanceOre: 0 })
        .onConflictDoNothing({ target: account.userId })
        .returning({ ariaAccountNo: account.ariaAccountNo });
      if (!created) throw new AppError(409, accountErrorCodes.accountExists, accountErrorMessages.accountExists);
      return created.ariaAccountNo;
    },

    async updateAccount(userId, input) {
      if (!deps.isOfferedTitle(input.firstTitleCode)) throw unknownTitle();
      await getOwnAccount(userId, input.ariaAccountNo);
      const [updated] = await db
        .update(account)
        .set({ firstTitleCode: input.firstTitleCode.toUpperCase() })
        .where(and(eq(account.ariaAccountNo, input.ariaAccountNo), eq(account.userId, userId)))
        .returning();
      if (!updated) throw notFound();
      return updated;
    },

    async getOwnSubscription(userId, ariaAccountNo, titleCode) {
      // Another user's account and a title without a subscription both find no row: the same 404.
      const [row] = await ownSubscription({ userId, ariaAccountNo, titleCode: titleCode.toUpperCase() });
      if (!row) throw notFound();
      return toShown(row, osloToday(now()));
    },

    async subscriptionForTitle(accountRow, titleCode) {
      const code = titleCode.toUpperCase();
      if (code !== FALLBACK_TITLE_CODE) {
        const [row] = await subscriptionAtTitle.execute({ ariaAccountNo: accountRow.ariaAccountNo, titleCode: code });
        return row ? toShown(row, osloToday(now())) : null;
      }
      const all = await withOwnerName(eq(subscription.ariaAccountNo, accountRow.ariaAccountNo));
      return all.find((item) => item.titleCode === accountRow.firstTitleCode) ?? all[0] ?? null;
    },
  };
}
