import { createPrivateKey } from 'node:crypto';
import { emailDomainOf, isValidEmail } from '@minside/domain';

/** DKIM signing of outgoing mail (MAIL_DKIM_DOMAIN, MAIL_DKIM_SELECTOR, the key); see README "E-mail". */
export interface MailDkimConfig {
  domainName: string;
  keySelector: string;
  /** PEM. */
  privateKey: string;
}

/**
 * MAIL_FROM's parts: `Min Side <minside@adressa.no>`, `"Min Side" <…>` or a bare address. The
 * address is checked by the product's one rule (`isValidEmail`); the development default's
 * `@localhost` is let through, since it never leaves the machine.
 */
export function mailboxOf(from: string): { name: string | undefined; address: string } {
  const named = /^\s*(?:"([^"]*)"|([^<>"]*?))\s*<([^<>]+)>\s*$/.exec(from);
  const address = (named ? (named[3] ?? '') : from).trim();
  const checked = emailDomainOf(address) === 'localhost' ? `${address}.test` : address;
  if (!isValidEmail(checked)) throw new Error(`not an address: ${from}`);
  const name = (named?.[1] ?? named?.[2] ?? '').trim();
  return { name: name === '' ? undefined : name, address };
}

/**
 * DMARC passes on DKIM only when the signing domain aligns with the From domain: relaxed
 * alignment wants the same organisational domain. Without the public-suffix list this accepts
 * the same domain or one a subdomain of the other (`adressa.no` signing `minside.adressa.no`).
 */
function dkimAligned(fromAddress: string, dkimDomain: string): boolean {
  const from = emailDomainOf(fromAddress);
  const signer = dkimDomain.toLowerCase();
  return from === signer || from.endsWith(`.${signer}`) || signer.endsWith(`.${from}`);
}

/**
 * The DKIM settings from their variables, all or none (a partial set is a mistake, named). The key
 * is given inline (MAIL_DKIM_PRIVATE_KEY, `\n` allowed for line breaks) or read from a file
 * (MAIL_DKIM_PRIVATE_KEY_FILE) and must parse as a private key. Returns problems instead of throwing
 * so config.ts reports them with the others' wording.
 */
export function dkimConfigFrom(
  vars: { domain: string | undefined; selector: string | undefined; privateKey: string | undefined; privateKeyFile: string | undefined },
  fromAddress: string,
  readFile: (path: string) => string,
): { ok: true; dkim: MailDkimConfig | undefined } | { ok: false; problem: string } {
  const given = { MAIL_DKIM_DOMAIN: vars.domain, MAIL_DKIM_SELECTOR: vars.selector, 'MAIL_DKIM_PRIVATE_KEY or MAIL_DKIM_PRIVATE_KEY_FILE': vars.privateKey ?? vars.privateKeyFile };
  const missing = Object.entries(given)
    .filter(([, value]) => value === undefined)
    .map(([name]) => name);
  if (missing.length === 3) return { ok: true, dkim: undefined };
  if (missing.length > 0) return { ok: false, problem: `${missing.join(', ')}: required when any MAIL_DKIM_* variable is set (DKIM needs the domain, the selector and the private key)` };
  if (vars.privateKey && vars.privateKeyFile) return { ok: false, problem: 'MAIL_DKIM_PRIVATE_KEY, MAIL_DKIM_PRIVATE_KEY_FILE: set one of them, not both' };
  let privateKey: string;
  if (vars.privateKeyFile) {
    try {
      privateKey = readFile(vars.privateKeyFile);
    } catch (error) {
      return { ok: false, problem: `MAIL_DKIM_PRIVATE_KEY_FILE: ${vars.privateKeyFile} cannot be read: ${(error as Error).message}` };
    }
  } else privateKey = (vars.privateKey as string).replace(/\\n/g, '\n');
  const keyVariable = vars.privateKeyFile ? 'MAIL_DKIM_PRIVATE_KEY_FILE' : 'MAIL_DKIM_PRIVATE_KEY';
  try {
    const key = createPrivateKey(privateKey);
    if (key.asymmetricKeyType !== 'rsa') return { ok: false, problem: `${keyVariable}: must be an RSA private key (PEM), not ${key.asymmetricKeyType ?? 'unknown'}` };
  } catch {
    return { ok: false, problem: `${keyVariable}: not a PEM private key` };
  }
  const domainName = (vars.domain as string).trim().toLowerCase();
  if (!dkimAligned(fromAddress, domainName)) {
    return { ok: false, problem: `MAIL_DKIM_DOMAIN: ${domainName} does not align with MAIL_FROM's domain (${emailDomainOf(fromAddress)}); DMARC would fail: sign for the From domain or its parent` };
  }
  return { ok: true, dkim: { domainName, keySelector: (vars.selector as string).trim(), privateKey } };
}
