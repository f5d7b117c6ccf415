import { randomUUID } from 'node:crypto';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { instStatusCodes, osloToday } from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Tx } from '../../db/client.ts';
import {
  account,
  appUser,
  cancellationSurvey,
  connectRequest,
  consentChoice,
  consentPermissionChoice,
  dataRequest,
  deliveryAddress,
  deliveryChange,
  deliveryComplaint,
  emailChange,
  familyInvitationLink,
  idpAccount,
  idpLoginFailure,
  idpPayload,
  mailOptOut,
  mailOutbox,
  payment,
  paymentAgreement,
  profileFieldSource,
  studentVerification,
  subscription,
  subscriptionChange,
  subscriptionMember,
  subscriptionOrder,
  userLogin,
  userSession,
  verificationCode,
} from '../../db/schema.ts';
import { mainSubjectOf } from '../../identity/main-subject.ts';
import { issueMissingInvoiceDocuments } from '../billing/index.ts';
import { endSharesOf } from '../subscription/index.ts';
import type { RequestRow } from './data-request.ts';

// What an erasure deletes and what it keeps, table by table, in the job's transaction. Apart from
// the request and its schedule (deletion.ts): this list grows with every table that holds a person.

const ERASED_EMAIL_DOMAIN = 'slettet.invalid';

/**
 * The erasure of one person. Kept: invoices and payments (bookkeeping, SPEC §9: 5 years),
 * the account and subscriptions they hang on, and the change log — all without a name,
 * because the user row they point at is pseudonymised — and the issued invoices and credit
 * notes as they were issued, with the name they were issued to (ADR 026). Deleted: the identity account (so
 * the login stops working), sessions, consents, mail, codes, memberships, addresses.
 */
export async function erase(tx: Tx, request: RequestRow, deps: { now: () => Date; catalogue: Catalogue; mainIssuerKey: string }): Promise<void> {
  const { now, catalogue, mainIssuerKey } = deps;
  const [user] = await tx.select().from(appUser).where(eq(appUser.id, request.userId)).for('update');
  if (!user) return;
  const at = now();
  const email = user.email;
  const accounts = await tx.select({ no: account.ariaAccountNo }).from(account).where(eq(account.userId, user.id));
  const subscriptions = accounts.length
    ? await tx
        .select()
        .from(subscription)
        .where(
          inArray(
            subscription.ariaAccountNo,
            accounts.map((row) => row.no),
          ),
        )
    : [];
  const subscriptionIds = subscriptions.map((row) => row.id);
  // The sales documents name the buyer as invoiced and are kept as issued (bokføringsloven § 13, ADR 026):
  // an invoice from before documents gets its document now, before the name and address go.
  await issueMissingInvoiceDocuments(
    tx,
    catalogue,
    accounts.map((row) => row.no),
    at,
  );

  // Access ends now: a cancelled subscription would otherwise run to its period end for nobody.
  for (const row of subscriptions) {
    if (row.instStatusCode === instStatusCodes.TERMINATED || row.instStatusCode === instStatusCodes.CANCELLED) continue;
    await tx
      .update(subscription)
      .set({
        instStatusCode: instStatusCodes.TERMINATED,
        cancelledAt: row.cancelledAt ?? at,
        currentPeriodEnd: osloToday(at),
        pendingPlanId: null,
        pendingPlanName: null,
        pendingChangeOn: null,
        resumeStatusCode: null,
      })
      .where(eq(subscription.id, row.id));
    await tx.insert(subscriptionChange).values({
      id: randomUUID(),
      subscriptionId: row.id,
      at,
      actor: 'system',
      actorUserId: null,
      kind: 'expired',
      fromStatusCode: row.instStatusCode,
      toStatusCode: instStatusCodes.TERMINATED,
      details: { on: osloToday(at) },
    });
  }

  if (subscriptionIds.length) {
    await tx.update(deliveryAddress).set({ name: '', coName: null, street: 'Slettet', streetNumber: '', apartment: null, floor: null }).where(inArray(deliveryAddress.subscriptionId, subscriptionIds));
    await tx.update(deliveryChange).set({ address: null }).where(inArray(deliveryChange.subscriptionId, subscriptionIds));
    await tx.update(deliveryComplaint).set({ text: null }).where(inArray(deliveryComplaint.subscriptionId, subscriptionIds));
    await tx.update(cancellationSurvey).set({ reasonText: null }).where(inArray(cancellationSurvey.subscriptionId, subscriptionIds));
    // Cards, Vipps numbers and bank accounts are not bookkeeping: the payments keep method and amount.
    await tx.delete(paymentAgreement).where(inArray(paymentAgreement.subscriptionId, subscriptionIds));
    // Others this person invited: their invitations name them by e-mail and lead nowhere now.
    await tx.delete(familyInvitationLink).where(inArray(familyInvitationLink.subscriptionId, subscriptionIds));
    await tx.delete(subscriptionMember).where(inArray(subscriptionMember.subscriptionId, subscriptionIds));
    // Members and employees lose the access they had through this person's subscriptions.
    for (const id of subscriptionIds) await endSharesOf(tx, id, at);
  }
  // Shares this person held in someone else's subscription.
  await tx.delete(familyInvitationLink).where(eq(familyInvitationLink.email, email));
  await tx.delete(subscriptionMember).where(or(eq(subscriptionMember.userId, user.id), eq(subscriptionMember.email, email)));

  await tx.update(payment).set({ userId: null, details: {} }).where(eq(payment.userId, user.id));
  await tx.delete(consentChoice).where(eq(consentChoice.userId, user.id));
  await tx.delete(consentPermissionChoice).where(eq(consentPermissionChoice.userId, user.id));
  await tx.delete(emailChange).where(eq(emailChange.userId, user.id));
  await tx.delete(profileFieldSource).where(eq(profileFieldSource.userId, user.id));
  await tx.delete(studentVerification).where(eq(studentVerification.userId, user.id));
  await tx.delete(verificationCode).where(eq(verificationCode.userId, user.id));
  // Orders stay for bookkeeping (what was bought and paid), without the delivery address.
  await tx.update(subscriptionOrder).set({ deliveryAddress: null }).where(eq(subscriptionOrder.userId, user.id));
  await tx.delete(connectRequest).where(eq(connectRequest.userId, user.id));
  await tx.delete(mailOutbox).where(eq(mailOutbox.to, email));
  await tx.delete(mailOptOut).where(eq(mailOptOut.userId, user.id));
  await tx.delete(dataRequest).where(and(eq(dataRequest.userId, user.id), eq(dataRequest.kind, 'export')));
  await tx.delete(userSession).where(eq(userSession.userId, user.id));

  // The account at the embedded provider is the user's login with the main issuer, read before
  // the login rows go: not `identity_sub`, which names Vipps for a user who came by it first. A
  // user who logs in with Vipps only has none here (an account they unlinked is no longer theirs).
  const identityId = await mainSubjectOf(tx, mainIssuerKey, user);
  // No login reaches the erased user any more (issue 24: the group's account, Vipps).
  await tx.delete(userLogin).where(eq(userLogin.userId, user.id));
  // The embedded provider's login, its sessions and grants: the person cannot sign in again.
  if (identityId !== null) {
    await tx.delete(idpAccount).where(eq(idpAccount.id, identityId));
    await tx.delete(idpPayload).where(sql`${idpPayload.payload}->>'accountId' = ${identityId}`);
  }
  await tx.delete(idpLoginFailure).where(eq(idpLoginFailure.key, `email:${email}`));

  // The row stays so invoices, payments and the change log keep their keys, but it names nobody.
  await tx
    .update(appUser)
    .set({ identitySub: `erased:${user.id}`, email: `${user.id}@${ERASED_EMAIL_DOMAIN}`, givenName: '', familyName: '', phoneNumber: null, birthdate: null })
    .where(eq(appUser.id, user.id));
  await tx
    .update(dataRequest)
    .set({
      status: 'completed',
      completedAt: at,
      lockedUntil: null,
      details: { cancelledSubscriptions: request.details['cancelledSubscriptions'] ?? [], requestedBy: request.details['requestedBy'] ?? 'self' },
    })
    .where(eq(dataRequest.id, request.id));
}
