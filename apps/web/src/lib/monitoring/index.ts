// Browser monitoring (SPEC §7, §9): RUM only when configured and consented, started when the
// browser is idle. The configuration (rum-config.ts) loads with the SDK, not with the page.
export { startRum, stopRum } from './rum.ts';
