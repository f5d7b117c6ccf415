import { pageCookies } from '../page-scope.ts';

/** document.cookie, read and written one cookie at a time. Values are URI-encoded. */
export function readCookie(name: string, source: string = pageCookies()): string | null {
  for (const part of source.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(separator + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

export interface CookieOptions {
  maxAgeSeconds: number;
}

export function writeCookie(name: string, value: string, { maxAgeSeconds }: CookieOptions): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAgeSeconds}; SameSite=Lax${secure}`;
}
