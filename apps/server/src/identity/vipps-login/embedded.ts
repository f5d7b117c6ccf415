import { randomBytes, randomUUID } from 'node:crypto';
import { addDays, addMonths } from '@minside/domain';
import { createVippsLoginSimulator, type VippsAddress, type VippsPerson } from './simulator.ts';

/**
 * `npm start`'s "Logg inn med Vipps" (VIPPS_LOGIN=simulator, issue 24): the Vipps Login simulator
 * in this process on 127.0.0.1, with a new client secret at each start, and demo persons whose
 * birthdates are relative to the clock. The portal reaches it over HTTP through discovery, exactly
 * as it reaches Vipps Login (OIDC2_ISSUER). Development only: loadConfig refuses it in production.
 */
export interface EmbeddedVippsLogin {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

export interface EmbeddedVippsLoginOptions {
  /** The portal's callback, for the client's metadata. */
  registeredRedirectUri: string;
  /** Every title's callback (the portal's redirect policy). */
  redirectUriAllowed: (uri: string) => boolean;
  /** Today in Oslo: the demo persons' ages are kept, whatever the date. */
  today: string;
  password: string;
  log: { info(details: object, message: string): void; error(details: object, message: string): void };
}

function address(street: string, postalCode: string, region: string): VippsAddress {
  return { street_address: street, postal_code: postalCode, region, country: 'NO', formatted: `${street}\n${postalCode} ${region}\nNO`, address_type: 'home' };
}

/** The demo persons at Vipps. Kari is papir@'s person: her verified e-mail links the logins at her first Vipps login. */
function demoVippsPersons(today: string, password: string): VippsPerson[] {
  const bornYearsAgo = (years: number, days = 40) => addDays(addMonths(today, -12 * years), -days);
  const person = (sub: string, email: string, given: string, family: string, phone: string, birthdate: string, home: VippsAddress): VippsPerson => ({
    sub,
    email,
    password,
    claims: {
      name: `${given} ${family}`,
      given_name: given,
      family_name: family,
      email,
      email_verified: true,
      phone_number: phone,
      phone_number_verified: true,
      birthdate,
      address: home,
      other_addresses: [],
    },
  });
  return [
    person('2c5b6a4e-1b1d-4a55-9a39-5f4f0b1c0001', 'papir@minside.test', 'Kari', 'Nordmann', '4791234567', bornYearsAgo(58), address('Kongens gate 12', '7011', 'Trondheim')),
    person('2c5b6a4e-1b1d-4a55-9a39-5f4f0b1c0002', 'vipps@minside.test', 'Vilde', 'Vippsen', '4748000001', bornYearsAgo(27), address('Olav Tryggvasons gate 5', '7011', 'Trondheim')),
    person('2c5b6a4e-1b1d-4a55-9a39-5f4f0b1c0003', 'ung17@minside.test', 'Mia', 'Moe', '4748000002', bornYearsAgo(17), address('Elgeseter gate 20', '7030', 'Trondheim')),
  ];
}

export async function startEmbeddedVippsLogin(options: EmbeddedVippsLoginOptions): Promise<EmbeddedVippsLogin> {
  const clientId = `minside-dev-${randomUUID()}`;
  const clientSecret = randomBytes(32).toString('base64url');
  const simulator = createVippsLoginSimulator({
    clientId,
    clientSecret,
    redirectUris: [options.registeredRedirectUri],
    redirectUriAllowed: options.redirectUriAllowed,
    persons: demoVippsPersons(options.today, options.password),
    onError: (error) => options.log.error({ err: error }, 'Vipps Login simulator error'),
  });
  const issuer = await simulator.listen(0, '127.0.0.1');
  options.log.info({ issuer }, `Vipps Login simulator (development only, verifies no one) at ${issuer}`);
  return { issuer, clientId, clientSecret, close: () => simulator.close() };
}
