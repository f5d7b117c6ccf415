/** What other areas may use of the billing area (issue 7 orders pay through the same provider flow). */
export { goToProvider } from './provider-redirect.ts';
