/**
 * SPEC §9: development hosts are localhost, IP addresses, hosts starting with dev., polarx.
 * or polary., and hosts ending in pm.test. `*.localhost` counts as localhost (RFC 6761).
 */
export function isDevelopmentHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return true;
  if (host.includes(':')) return true; // IPv6 literal
  if (/^(dev|polarx|polary)\./.test(host)) return true;
  return host.endsWith('pm.test');
}
