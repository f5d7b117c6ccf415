// The package's one entry (`@minside/domain`): every area's rules and contracts. A folder per
// area, `core/` underneath them all; the layout and the naming are in ../README.md. The
// holiday calendar is the one deep entry (`@minside/domain/holidays`): its library's data stays
// out of the browser bundle.

// core: time, dates, formats, text and field rules, the error shape
export * from './core/clock.ts';
export * from './core/dates.ts';
export * from './core/format.ts';
export * from './core/text.ts';
export * from './core/validation.ts';
export * from './core/email.ts';
export * from './core/fields.ts';
export * from './core/api-error.ts';
export * from './core/api-contract.ts';

// the title and the page around it
export * from './title/title.ts';
export * from './title/hosts.ts';
export * from './title/color.ts';
export * from './bootstrap/bootstrap.ts';

// people and their subscriptions
export * from './identity/identity.ts';
export * from './profile/profile.ts';
export * from './subscription/subscription.ts';
export * from './subscription/paid-period.ts';
export * from './subscription/lifecycle.ts';
export * from './subscription/plans.ts';
export * from './subscription/price-terms.ts';
export * from './subscription/cancellation.ts';
export * from './subscription/change-log.ts';
export * from './subscription/subscription-contracts.ts';
export * from './subscription/self-service.ts';
export * from './overview/home-overview.ts';

// the product areas
export * from './delivery/publication-calendar.ts';
export * from './delivery/delivery.ts';
export * from './delivery/delivery-notice.ts';
export * from './billing/kid.ts';
export * from './billing/billing.ts';
export * from './ordering/ordering.ts';
export * from './ordering/connect.ts';
export * from './ordering/withdrawal.ts';
export * from './family/family.ts';
export * from './business/business.ts';
export * from './student/student.ts';
export * from './consent/consent.ts';
export * from './privacy/privacy.ts';
export * from './mail/mail-unsubscribe.ts';
export * from './jobs/jobs.ts';
