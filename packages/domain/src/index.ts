export * from './api-error.ts';
export * from './title.ts';
export * from './hosts.ts';
export * from './subscription.ts';
export * from './identity.ts';
export * from './dates.ts';
