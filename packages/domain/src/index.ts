export * from './api-error.ts';
export * from './title.ts';
export * from './hosts.ts';
