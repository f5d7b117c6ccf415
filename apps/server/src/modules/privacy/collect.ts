import { and, desc, eq, gte, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { mainSubjectOf } from '../../identity/main-subject.ts';
import {
  account,
  appUser,
  cancellationSurvey,
  consentChoice,
  consentPermissionChoice,
  dataRequest,
  deliveryAddress,
  deliveryChange,
  deliveryComplaint,
  deliveryComplaintDay,
  emailChange,
  idpAccount,
  invoice,
  billingDocument,
  invoiceCredit,
  creditSetOff,
  profileFieldSource,
  userLogin,
  mailOptOut,
  mailOutbox,
  payment,
  paymentAgreement,
  studentVerification,
  subscription,
  subscriptionChange,
  subscriptionMember,
  userSession,
  subscriptionOrder,
  connectRequest,
} from '../../db/schema.ts';

/** Only the last four characters: enough to recognise a card or account, useless to anyone else. */
function mask(value: string | null): string | null {
  if (!value) return null;
  const tail = value.replace(/\s|\./g, '').slice(-4);
  return `${'*'.repeat(Math.max(4, value.replace(/\s|\./g, '').length - 4))}${tail}`;
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/**
 * Everything the portal holds about one user, as plain JSON (issue 9 item 3): profile,
 * account, subscriptions, addresses and delivery changes, complaints, invoices, payments,
 * payment methods (masked), consents, memberships, mail, change log. Secrets (password
 * hashes, session and token hashes, provider references) are not personal data of the user
 * and are left out. The order of sections is the order a person would look for things.
 */
export async function collectUserData(db: Pick<Db, 'select'>, userId: string, identityProviderName: string, mainIssuerKey: string) {
  const [user] = await db.select().from(appUser).where(eq(appUser.id, userId));
  if (!user) throw new Error(`no user ${userId}`);
  const accounts = await db.select().from(account).where(eq(account.userId, userId));
  const accountNos = accounts.map((row) => row.ariaAccountNo);
  const subscriptions = accountNos.length ? await db.select().from(subscription).where(inArray(subscription.ariaAccountNo, accountNos)) : [];
  const subscriptionIds = subscriptions.map((row) => row.id);
  const bySubscription = <T>(load: (ids: string[]) => Promise<T[]>) => (subscriptionIds.length ? load(subscriptionIds) : Promise.resolve([] as T[]));

  // The embedded provider's account is the user's login with the main issuer, not `identity_sub`
  // (`vipps:{sub}` for a user who came by Vipps first); a user who logs in with Vipps only has none.
  const identityId = await mainSubjectOf(db, mainIssuerKey, user);
  const [identity] =
    identityId === null
      ? []
      : await db
          .select({ email: idpAccount.email, givenName: idpAccount.givenName, familyName: idpAccount.familyName, phoneNumber: idpAccount.phoneNumber, createdAt: idpAccount.createdAt })
          .from(idpAccount)
          .where(eq(idpAccount.id, identityId));
  const addresses = await bySubscription((ids) => db.select().from(deliveryAddress).where(inArray(deliveryAddress.subscriptionId, ids)));
  const changes = await bySubscription((ids) => db.select().from(deliveryChange).where(inArray(deliveryChange.subscriptionId, ids)).orderBy(desc(deliveryChange.placedAt)));
  const complaints = await bySubscription((ids) => db.select().from(deliveryComplaint).where(inArray(deliveryComplaint.subscriptionId, ids)));
  const complaintDays = await bySubscription((ids) => db.select().from(deliveryComplaintDay).where(inArray(deliveryComplaintDay.subscriptionId, ids)));
  const invoices = accountNos.length ? await db.select().from(invoice).where(inArray(invoice.ariaAccountNo, accountNos)).orderBy(desc(invoice.periodFrom)) : [];
  const invoiceNos = invoices.map((row) => row.ariaInvoiceNo);
  const credits = invoiceNos.length ? await db.select().from(invoiceCredit).where(inArray(invoiceCredit.ariaInvoiceNo, invoiceNos)) : [];
  const fieldSources = await db.select().from(profileFieldSource).where(eq(profileFieldSource.userId, user.id));
  const logins = await db.select().from(userLogin).where(eq(userLogin.userId, user.id));
  const setOffs = await bySubscription((ids) => db.select().from(creditSetOff).where(inArray(creditSetOff.subscriptionId, ids)).orderBy(creditSetOff.createdAt));
  const documents = accountNos.length
    ? await db
        .select({ number: billingDocument.number, kind: billingDocument.kind, ariaInvoiceNo: billingDocument.ariaInvoiceNo, issuedOn: billingDocument.issuedOn, amountOre: billingDocument.amountOre })
        .from(billingDocument)
        .where(inArray(billingDocument.ariaAccountNo, accountNos))
        .orderBy(desc(billingDocument.number))
    : [];
  const payments = await db
    .select()
    .from(payment)
    .where(accountNos.length ? or(eq(payment.userId, userId), inArray(payment.ariaAccountNo, accountNos)) : eq(payment.userId, userId))
    .orderBy(desc(payment.createdAt));
  const agreements = await bySubscription((ids) => db.select().from(paymentAgreement).where(inArray(paymentAgreement.subscriptionId, ids)));
  const consents = await db.select().from(consentChoice).where(eq(consentChoice.userId, userId)).orderBy(desc(consentChoice.id));
  const permissions = await db.select().from(consentPermissionChoice).where(eq(consentPermissionChoice.userId, userId)).orderBy(desc(consentPermissionChoice.id));
  // Only what is tied to this login. A sign-up does not prove the mailbox, so nothing is
  // looked up by e-mail address alone: an invitation to the address is not the user's until accepted.
  const memberships = await db.select().from(subscriptionMember).where(eq(subscriptionMember.userId, userId));
  const invited = await bySubscription((ids) => db.select().from(subscriptionMember).where(inArray(subscriptionMember.subscriptionId, ids)));
  // Mail to the address only since this user proved it (issue 20): mail to the same string before
  // that (a sign-up with someone else's address, an old owner of the address) is not theirs.
  const mail = user.emailVerifiedAt
    ? await db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.to, user.email), gte(mailOutbox.createdAt, user.emailVerifiedAt)))
        .orderBy(desc(mailOutbox.createdAt))
    : [];
  const mailOptOuts = await db.select().from(mailOptOut).where(eq(mailOptOut.userId, userId));
  const changeLog = await bySubscription((ids) => db.select().from(subscriptionChange).where(inArray(subscriptionChange.subscriptionId, ids)).orderBy(desc(subscriptionChange.at)));
  const surveys = await bySubscription((ids) => db.select().from(cancellationSurvey).where(inArray(cancellationSurvey.subscriptionId, ids)));
  const [student] = await db.select().from(studentVerification).where(eq(studentVerification.userId, userId));
  const emailChanges = await db.select().from(emailChange).where(eq(emailChange.userId, userId));
  const orders = await db.select().from(subscriptionOrder).where(eq(subscriptionOrder.userId, userId)).orderBy(desc(subscriptionOrder.createdAt));
  const connectRequests = await db.select().from(connectRequest).where(eq(connectRequest.userId, userId));
  const sessions = await db.select({ createdAt: userSession.createdAt, lastSeenAt: userSession.lastSeenAt, expiresAt: userSession.expiresAt }).from(userSession).where(eq(userSession.userId, userId));
  const requests = await db
    .select({ kind: dataRequest.kind, status: dataRequest.status, requestedAt: dataRequest.requestedAt, completedAt: dataRequest.completedAt })
    .from(dataRequest)
    .where(eq(dataRequest.userId, userId));

  return {
    profile: {
      sp_id: user.id,
      [`${identityProviderName}Id`]: user.identitySub,
      email: user.email,
      givenName: user.givenName,
      familyName: user.familyName,
      phoneNumber: user.phoneNumber,
      birthdate: user.birthdate,
      createdAt: iso(user.createdAt),
    },
    identityAccount: identity ? { ...identity, createdAt: iso(identity.createdAt) } : null,
    accounts: accounts.map((row) => ({ ariaAccountNo: row.ariaAccountNo, firstTitleCode: row.firstTitleCode, accountBalanceOre: row.accountBalanceOre, createdAt: iso(row.createdAt) })),
    subscriptions: subscriptions.map((row) => ({
      id: row.id,
      ariaAccountNo: row.ariaAccountNo,
      titleCode: row.titleCode,
      ariaPlanID: row.ariaPlanId,
      planName: row.planName,
      planProductType: row.planProductType,
      instStatusCode: row.instStatusCode,
      billingPeriod: row.billingPeriod,
      priceOre: row.priceOre,
      paymentMethod: row.paymentMethod,
      startedOn: row.startedOn,
      currentPeriodEnd: row.currentPeriodEnd,
      cancelledAt: iso(row.cancelledAt),
      pendingPlanName: row.pendingPlanName,
      pendingChangeOn: row.pendingChangeOn,
      sharedFromSubscriptionId: row.sharedFromSubscriptionId,
      subscriptionInfo1: row.subscriptionInfo1,
    })),
    deliveryAddresses: addresses.map((row) => ({ ...row, updatedAt: iso(row.updatedAt) })),
    deliveryChanges: changes.map((row) => ({ ...row, placedAt: iso(row.placedAt), updatedAt: iso(row.updatedAt), cancelledAt: iso(row.cancelledAt) })),
    complaints: complaints.map((row) => ({
      ...row,
      createdAt: iso(row.createdAt),
      days: complaintDays.filter((day) => day.caseNo === row.caseNo).map((day) => ({ issueDate: day.issueDate, code: day.code })),
    })),
    invoices: invoices.map((row) => ({ ...row, paidAt: iso(row.paidAt), createdAt: iso(row.createdAt) })),
    invoiceCredits: credits.map((row) => ({ ariaInvoiceNo: row.ariaInvoiceNo, amountOre: row.amountOre, reason: row.reason, createdAt: iso(row.createdAt) })),
    // Where each profile field came from (issue 24).
    profileFieldSources: fieldSources.map((row) => ({ field: row.field, source: row.source, issuerLabel: row.issuerLabel, verified: row.verified, recordedAt: iso(row.recordedAt) })),
    // The logins that reach this user (issue 24): which issuer, its id for the person, since when.
    logins: logins.map((row) => ({ issuer: row.issuer, subject: row.subject, linkedAt: iso(row.linkedAt) })),
    // Credit notes to be set off against the next invoice, those set off already (issue 23), and those
    // handed to the customer centre to pay back because the subscription ended (ADR 036).
    creditSetOffs: setOffs.map((row) => ({
      creditNoteNumber: row.creditNoteNumber,
      amountOre: row.amountOre,
      ariaInvoiceNo: row.ariaInvoiceNo,
      createdAt: iso(row.createdAt),
      setOffAt: iso(row.setOffAt),
      handedOverAt: iso(row.handedOverAt),
    })),
    // The issued invoices and credit notes (issue 23); each one's PDF is on /fakturaoversikt.
    billingDocuments: documents,
    payments: payments.map((row) => ({
      id: row.id,
      purpose: row.purpose,
      method: row.method,
      amountOre: row.amountOre,
      status: row.status,
      errorCode: row.errorCode,
      ariaInvoiceNo: row.ariaInvoiceNo,
      subscriptionId: row.subscriptionId,
      createdAt: iso(row.createdAt),
      settledAt: iso(row.settledAt),
    })),
    paymentMethods: agreements.map((row) => ({
      subscriptionId: row.subscriptionId,
      method: row.method,
      status: row.status,
      cardBrand: row.cardBrand,
      cardNumber: row.cardLast4 ? `**** **** **** ${row.cardLast4}` : null,
      cardExpiry: row.cardExpiryMonth && row.cardExpiryYear ? `${String(row.cardExpiryMonth).padStart(2, '0')}/${row.cardExpiryYear}` : null,
      phoneNumber: mask(row.phoneNumber),
      bankAccountNumber: mask(row.bankAccountNumber),
      createdAt: iso(row.createdAt),
    })),
    consents: {
      cookiesAndTracking: consents.map((row) => ({
        analytics: row.analytics,
        marketing: row.marketing,
        personalisation: row.personalisation,
        source: row.source,
        titleCode: row.titleCode,
        givenAt: iso(row.givenAt),
      })),
      permissions: permissions.map((row) => ({ permission: row.permission, granted: row.granted, titleCode: row.titleCode, givenAt: iso(row.givenAt) })),
    },
    memberships: memberships.map((row) => ({
      kind: row.kind,
      status: row.status,
      subscriptionId: row.subscriptionId,
      email: row.email,
      invitedAt: iso(row.invitedAt),
      acceptedAt: iso(row.acceptedAt),
    })),
    invitationsSent: invited.map((row) => ({
      kind: row.kind,
      status: row.status,
      subscriptionId: row.subscriptionId,
      email: row.email,
      invitedAt: iso(row.invitedAt),
      acceptedAt: iso(row.acceptedAt),
    })),
    // Which mail was sent, not its bodies: they carry one-time links, codes and pay-links (review finding 3).
    mail: mail.map((row) => ({ to: row.to, subject: row.subject, createdAt: iso(row.createdAt), sentAt: iso(row.sentAt) })),
    // Kinds of optional e-mail turned off by their unsubscribe link (ADR 010).
    mailOptOuts: mailOptOuts.map((row) => ({ titleCode: row.titleCode, kind: row.kind, createdAt: iso(row.createdAt) })),
    changeLog: changeLog.map((row) => ({
      subscriptionId: row.subscriptionId,
      at: iso(row.at),
      actor: row.actor,
      kind: row.kind,
      fromStatusCode: row.fromStatusCode,
      toStatusCode: row.toStatusCode,
      details: row.details,
    })),
    cancellationSurveys: surveys.map((row) => ({
      subscriptionId: row.subscriptionId,
      reasonCode: row.reasonCode,
      reasonText: row.reasonText,
      actionType: row.actionType,
      createdAt: iso(row.createdAt),
    })),
    studentVerification: student ? { studentEmail: student.studentEmail, verifiedAt: iso(student.verifiedAt) } : null,
    orders: orders.map((row) => ({
      id: row.id,
      titleCode: row.titleCode,
      planName: row.planName,
      billingPeriod: row.billingPeriod,
      offerCode: row.offerCode,
      amountNowOre: row.amountNowOre,
      priceLaterOre: row.priceLaterOre,
      deliveryAddress: row.deliveryAddress,
      paperStartsOn: row.paperStartsOn,
      state: row.state,
      paymentMethod: row.paymentMethod,
      createdAt: iso(row.createdAt),
    })),
    connectRequests: connectRequests.map((row) => ({ ariaAccountNo: row.ariaAccountNo, createdAt: iso(row.createdAt), verifiedAt: iso(row.verifiedAt), assignedAt: iso(row.assignedAt) })),
    emailChanges: emailChanges.map((row) => ({ newEmail: row.newEmail, createdAt: iso(row.createdAt), confirmedAt: iso(row.confirmedAt) })),
    sessions: sessions.map((row) => ({ createdAt: iso(row.createdAt), lastSeenAt: iso(row.lastSeenAt), expiresAt: iso(row.expiresAt) })),
    dataRequests: requests.map((row) => ({ kind: row.kind, status: row.status, requestedAt: iso(row.requestedAt), completedAt: iso(row.completedAt) })),
  };
}

/** A rough row count: above the inline limit the export is left to the job (big accounts). */
export async function estimateRows(db: Pick<Db, 'select'>, userId: string): Promise<number> {
  const accounts = await db.select({ no: account.ariaAccountNo }).from(account).where(eq(account.userId, userId));
  if (accounts.length === 0) return 0;
  const nos = accounts.map((row) => row.no);
  const invoices = await db.select({ no: invoice.ariaInvoiceNo }).from(invoice).where(inArray(invoice.ariaAccountNo, nos));
  const payments = await db.select({ id: payment.id }).from(payment).where(inArray(payment.ariaAccountNo, nos));
  return invoices.length + payments.length;
}
