import type { Catalogue } from '@minside/titles';
import type { Config } from '../config.ts';

/**
 * The origin of a title's Min Side for links in e-mails sent without a request to take the
 * host from (jobs, operator messages): the title's own `minside.{domain}` on an https
 * deployment, else PUBLIC_URL, else the development host `{publication}.localhost:PORT`.
 */
export function portalOriginFor(config: Pick<Config, 'publicUrl' | 'port'>, catalogue: Catalogue): (titleCode: string) => string {
  return (titleCode) => {
    const title = catalogue.findByTitleCode(titleCode);
    const publicUrl = config.publicUrl?.replace(/\/+$/, '');
    if (title && publicUrl?.startsWith('https://')) return title.minsideUrl.replace(/\/+$/, '');
    return publicUrl ?? `http://${title?.publication ?? 'localhost'}.localhost:${config.port}`;
  };
}
