// Browser monitoring (SPEC §7, §9): RUM only when configured and consented.
export { buildRumConfig, allowedTracingUrlsFor, LOCAL_DEV_SERVER } from './rum-config.ts';
export type { RumSettings } from './rum-config.ts';
export { startRum, stopRum } from './rum.ts';
