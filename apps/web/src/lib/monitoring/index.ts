// Browser monitoring (SPEC §7, §9): RUM only when configured and consented.
export { startRum, stopRum } from './rum.ts';
