import { addDays, addMonths, instStatusCodes } from '@minside/domain';
import type { Db } from './client.ts';
import { account, appUser, connectableAccount, deliveryAddress, subscription } from './schema.ts';

/**
 * Demo data of ordering (issue 7): a paper subscription bought elsewhere (at the customer
 * centre) with no login yet — README "Demo users", /koble-bruker. Its account belongs to a
 * stand-in user without an identity; the code goes to the contact e-mail, shown at /_dev/mail.
 */
const UNCONNECTED_ACCOUNT_NO = 40_000_099;
const UNCONNECTED_CONTACT_EMAIL = 'varden.abonnent@minside.test';
const UNCONNECTED_PHONE = '+4747000099';

type Writer = Pick<Db, 'insert'>;

export async function seedUnconnectedSubscription(tx: Writer, today: string): Promise<void> {
  const userId = 'user-unconnected-40000099';
  await tx
    .insert(appUser)
    .values({
      id: userId,
      identitySub: 'unclaimed-40000099',
      email: UNCONNECTED_CONTACT_EMAIL,
      givenName: 'Randi',
      familyName: 'Holm',
      phoneNumber: UNCONNECTED_PHONE,
      birthdate: addMonths(today, -12 * 54),
    })
    .onConflictDoNothing();
  await tx.insert(account).values({ ariaAccountNo: UNCONNECTED_ACCOUNT_NO, userId, firstTitleCode: 'VAR', accountBalanceOre: 0 }).onConflictDoNothing();
  const subscriptionId = 'demo-unconnected-var';
  await tx
    .insert(subscription)
    .values({
      id: subscriptionId,
      ariaAccountNo: UNCONNECTED_ACCOUNT_NO,
      titleCode: 'VAR',
      ariaPlanId: 'VAR-KOMPLETT-M',
      planName: 'Komplett',
      planProductType: 'COMBO',
      eligibleForSharing: true,
      instStatusCode: instStatusCodes.ACTIVE,
      billingPeriod: 'MONTH',
      priceOre: 64_900,
      paymentMethod: 'INVOICE',
      features: { plusContent: true, ePaper: true, paper: true, familySharing: true, thirdPartyBundle: true },
      startedOn: addMonths(today, -20),
      currentPeriodEnd: addDays(today, 18),
      maxMembers: 4,
    })
    .onConflictDoNothing();
  await tx
    .insert(deliveryAddress)
    .values({ subscriptionId, name: 'Randi Holm', coName: null, street: 'Kirkegata', streetNumber: '12', apartment: null, floor: null, postalCode: '3724', town: 'Skien' })
    .onConflictDoNothing();
  await tx
    .insert(connectableAccount)
    .values({ ariaAccountNo: UNCONNECTED_ACCOUNT_NO, contactEmail: UNCONNECTED_CONTACT_EMAIL, contactPhoneKey: UNCONNECTED_PHONE.slice(-8) })
    .onConflictDoNothing();
}
