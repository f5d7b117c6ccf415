import { isValidOrganizationNumber } from '@minside/titles';
import type { BillingDocumentContent } from './content.ts';
import { group, optionalValue, value, type XmlElement } from './ehf-xml.ts';

// The two parties of an EHF (ehf.ts): the seller (the title's company) and the buyer (the business
// the invoice is addressed to), each identified by a Norwegian organisation number, which is also
// where the receiver's access point takes the document.

/** ISO 6523 ICD (and EAS) code of the Norwegian organisation number, Enhetsregisteret. */
const NORWEGIAN_ORGANIZATION_NUMBER = '0192';

/** PEPPOL-COMMON-R041: nine digits with a valid MOD11 check digit. */
function organizationNumber(number: string, whose: string): string {
  if (!isValidOrganizationNumber(number)) throw new Error(`EHF: the ${whose}'s organisation number "${number}" is not a valid Norwegian organisation number`);
  return number;
}

export function sellerParty(content: BillingDocumentContent): XmlElement {
  const { seller } = content;
  const orgnr = organizationNumber(seller.organizationNumber, 'seller');
  return group('cac:AccountingSupplierParty', [
    group('cac:Party', [
      // BT-34, PEPPOL-EN16931-R020: the seller's PEPPOL address.
      value('cbc:EndpointID', orgnr, { schemeID: NORWEGIAN_ORGANIZATION_NUMBER }),
      // BT-28: the trading name, the title as the reader knows it.
      group('cac:PartyName', [value('cbc:Name', seller.titleName)]),
      group('cac:PostalAddress', [
        optionalValue('cbc:StreetName', seller.street),
        optionalValue('cbc:CityName', seller.town),
        optionalValue('cbc:PostalZone', seller.postalCode),
        group('cac:Country', [value('cbc:IdentificationCode', seller.countryCode)]),
      ]),
      // BT-31, NO-R-001: "NO" + organisation number + "MVA", only when in the VAT register (BR-O-02).
      seller.vatRegistered ? group('cac:PartyTaxScheme', [value('cbc:CompanyID', `NO${orgnr}MVA`), group('cac:TaxScheme', [value('cbc:ID', 'VAT')])]) : null,
      // NO-R-002 checks exactly this (PartyTaxScheme with TaxScheme "TAX", CompanyID "Foretaksregisteret"),
      // not CompanyLegalForm: foretaksregisterloven § 10-2 has an AS, ASA or NUF print the word. Every
      // seller here is a Norwegian company identified by its organisation number (scheme 0192).
      group('cac:PartyTaxScheme', [value('cbc:CompanyID', 'Foretaksregisteret'), group('cac:TaxScheme', [value('cbc:ID', 'TAX')])]),
      // BT-27 (BR-06) and BT-30.
      group('cac:PartyLegalEntity', [value('cbc:RegistrationName', seller.legalName), value('cbc:CompanyID', orgnr, { schemeID: NORWEGIAN_ORGANIZATION_NUMBER })]),
      // BG-6: the customer centre.
      seller.customerCenterPhone.trim() || seller.customerCenterEmail.trim()
        ? group('cac:Contact', [optionalValue('cbc:Telephone', seller.customerCenterPhone), optionalValue('cbc:ElectronicMail', seller.customerCenterEmail)])
        : null,
    ]),
  ]);
}

export function buyerParty(content: BillingDocumentContent): XmlElement {
  const { buyer } = content;
  if (buyer.organizationNumber === null) {
    throw new Error(`EHF: document ${content.number} has a buyer without an organisation number; EHF is only for business buyers`);
  }
  const orgnr = organizationNumber(buyer.organizationNumber, 'buyer');
  const address = buyer.postalAddress;
  const [street = null, additionalStreet = null, ...rest] = address?.lines.map((line) => line.trim()).filter((line) => line !== '') ?? [];
  return group('cac:AccountingCustomerParty', [
    group('cac:Party', [
      // BT-49, PEPPOL-EN16931-R010: where the receiver's access point takes the document.
      value('cbc:EndpointID', orgnr, { schemeID: NORWEGIAN_ORGANIZATION_NUMBER }),
      // BT-46: the customer number every document prints.
      group('cac:PartyIdentification', [value('cbc:ID', String(buyer.customerNumber))]),
      // BG-8 is mandatory (BR-10) with a country (BR-11). A business without an address on file is
      // still identified by a Norwegian organisation number (scheme 0192), so its country is NO.
      group('cac:PostalAddress', [
        optionalValue('cbc:StreetName', street),
        optionalValue('cbc:AdditionalStreetName', additionalStreet),
        optionalValue('cbc:CityName', address?.town),
        optionalValue('cbc:PostalZone', address?.postalCode),
        // UBL-SR-51: one third address line at most, so any further lines share it.
        rest.length > 0 ? group('cac:AddressLine', [value('cbc:Line', rest.join(', '))]) : null,
        group('cac:Country', [value('cbc:IdentificationCode', address?.countryCode ?? 'NO')]),
      ]),
      // BT-44 (BR-07) and BT-47.
      group('cac:PartyLegalEntity', [value('cbc:RegistrationName', buyer.name), value('cbc:CompanyID', orgnr, { schemeID: NORWEGIAN_ORGANIZATION_NUMBER })]),
      buyer.email.trim() ? group('cac:Contact', [value('cbc:ElectronicMail', buyer.email)]) : null,
    ]),
  ]);
}
