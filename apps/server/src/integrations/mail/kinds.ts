/**
 * Every kind of e-mail the portal sends, and whether it is transactional (ADR 010 "Sender,
 * kinds and unsubscribing"). A transactional message answers something the person did or
 * must know about their account, money or data (a code, a receipt, an invoice, a failed
 * payment, a confirmation): it cannot be turned off and carries no List-Unsubscribe. An
 * optional one is a notice the person can do without: it carries List-Unsubscribe (RFC 8058
 * one-click) and is not sent to someone who turned that kind off for that title.
 *
 * A new message needs a new kind here: `OutgoingMail.kind` is typed from this table, so the
 * compiler asks for the decision.
 */
export const mailKinds = {
  /** Sign-up: the code that confirms the address (embedded identity provider). */
  signupCode: 'transactional',
  /** Sign-up with an address that already has a login: a security notice instead of a code. */
  signupAccountExists: 'transactional',
  /** "Glemt passord?": the code that lets the owner of the address choose a new password (embedded identity provider). */
  passwordResetCode: 'transactional',
  /** "Glemt passord?" for an address without a login: a notice instead of a code. */
  passwordResetNoAccount: 'transactional',
  /** The password was changed with a reset code: a security notice. */
  passwordChanged: 'transactional',
  /** Connecting an existing subscription to a login: the code to the subscription's contact address. */
  connectCode: 'transactional',
  /** Someone tried to connect a subscription that is already connected: a security notice. */
  connectAlreadyConnected: 'transactional',
  /** New e-mail address on the profile: the confirmation link. */
  emailChange: 'transactional',
  /** A code to a work address (business subscription). */
  businessCode: 'transactional',
  /** A company administrator gave this address access: the one invitation, sent on their action. */
  businessInvitation: 'transactional',
  /** A code to a student address. */
  studentCode: 'transactional',
  /** A family member invited by the owner: the one invitation link, sent on the owner's action. */
  familyInvitation: 'transactional',
  /** The receipt of an order. */
  orderReceipt: 'transactional',
  /** The confirmation that a purchase was withdrawn (angrerett, ADR 030). */
  withdrawalConfirmation: 'transactional',
  /** A new invoice to pay (KID, due date, pay-link). */
  invoiceIssued: 'transactional',
  /** A renewal charge the provider refused. */
  paymentFailed: 'transactional',
  /** A payment received (billing documents). */
  paymentReceipt: 'transactional',
  /** A credit note (billing documents). */
  creditNote: 'transactional',
  /** Money given back that no credit note covers: a second payment of a paid invoice, an order that could not be fulfilled. */
  paymentRefunded: 'transactional',
  /** The bank deleted the AvtaleGiro mandate: the payment method changed. */
  avtalegiroStopped: 'transactional',
  /** The Vipps agreement stopped: the payment method changed. */
  vippsAgreementStopped: 'transactional',
  // Confirmations of a change the subscriber made to the subscription or its delivery (issue 25.7):
  // each answers something the person did, with its dates and amount, so it is transactional.
  /** The subscription is cancelled at the period end. */
  subscriptionCancelled: 'transactional',
  /** A cancellation taken back: the subscription goes on. */
  cancellationUndone: 'transactional',
  /** A retention offer taken instead of cancelling. */
  retentionOfferAccepted: 'transactional',
  /** An expired subscription started again. */
  subscriptionReactivated: 'transactional',
  /** A plan changed at once, a change ordered from the period end, or an ordered change withdrawn. */
  planChanged: 'transactional',
  /** The way to pay changed (chosen on Min Side, or a card or Vipps agreement approved). */
  paymentMethodChanged: 'transactional',
  /** A vacation stop, a redirect or a move (address change) placed, changed, shortened or deleted. */
  deliveryChanged: 'transactional',
  /** A delivery complaint received, with its case number. */
  complaintReceived: 'transactional',
  /** The copy of one's data is ready to download. */
  dataExport: 'transactional',
  /** Confirmation that the account is being erased. */
  dataErasure: 'transactional',
  /** The paper's delivery is disrupted in one's area (a segment message from the distribution side). */
  deliveryNotice: 'optional',
  /** Reminder to confirm student status again before the student price is reviewed. */
  studentReminder: 'optional',
} as const satisfies Record<string, 'transactional' | 'optional'>;

export type MailKind = keyof typeof mailKinds;
export type OptionalMailKind = { [K in MailKind]: (typeof mailKinds)[K] extends 'optional' ? K : never }[MailKind];
export type TransactionalMailKind = Exclude<MailKind, OptionalMailKind>;

export function isOptionalMailKind(kind: string): kind is OptionalMailKind {
  return (mailKinds as Record<string, string>)[kind] === 'optional';
}

/** How a kind is named on the unsubscribe page: "Du får ikke lenger {name} fra {title}." */
export const optionalMailKindNames: Record<OptionalMailKind, string> = {
  deliveryNotice: 'meldinger om leveringen av papiravisen',
  studentReminder: 'påminnelser om å bekrefte studentstatus',
};
