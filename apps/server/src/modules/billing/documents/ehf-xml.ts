// The XML an EHF is written in (ehf.ts), and the few value formats PEPPOL checks (amounts, dates):
// nothing here knows invoices, only elements and the rules every element follows (R008, F001, R051).

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  content: string | XmlElement[];
}

type Child = XmlElement | null;

/** Characters XML 1.0 cannot carry at all, not even as a character reference (and lone surrogates). */
const notXmlChar = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function escapeXml(value: string): string {
  return value.replace(notXmlChar, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\r/g, '&#13;');
}

/** An aggregate (`cac:`, or the root): its children in the order the UBL schema's sequence gives. */
export function group(name: string, children: Child[], attributes: Record<string, string> = {}): XmlElement {
  const present = children.filter((child): child is XmlElement => child !== null);
  // PEPPOL-EN16931-R008: no empty elements. Every group we write has a mandatory child.
  if (present.length === 0) throw new Error(`EHF: ${name} would be empty`);
  return { name, attributes, content: present };
}

/** A basic element (`cbc:`) whose value the document cannot do without. */
export function value(name: string, text: string, attributes: Record<string, string> = {}): XmlElement {
  const trimmed = text.replace(notXmlChar, '').trim();
  if (trimmed === '') throw new Error(`EHF: ${name} is required and empty`);
  return { name, attributes, content: trimmed };
}

/** A basic element left out when there is nothing to say (R008 forbids an empty one). */
export function optionalValue(name: string, text: string | null | undefined, attributes: Record<string, string> = {}): Child {
  return text == null || text.replace(notXmlChar, '').trim() === '' ? null : value(name, text, attributes);
}

export function serialize(element: XmlElement, depth: number): string {
  const indent = '  '.repeat(depth);
  const attributes = Object.entries(element.attributes)
    .map(([key, attributeValue]) => ` ${key}="${escapeXml(attributeValue)}"`)
    .join('');
  if (typeof element.content === 'string') {
    return `${indent}<${element.name}${attributes}>${escapeXml(element.content)}</${element.name}>\n`;
  }
  const children = element.content.map((child) => serialize(child, depth + 1)).join('');
  return `${indent}<${element.name}${attributes}>\n${children}${indent}</${element.name}>\n`;
}

/** Øre → "12345.67": whole numbers only, so no binary fraction ever reaches the document. */
export function oreToAmount(ore: number): string {
  if (!Number.isSafeInteger(ore)) throw new Error(`EHF: ${ore} is not a whole number of øre`);
  const sign = ore < 0 ? '-' : '';
  const absolute = Math.abs(ore);
  const fraction = absolute % 100;
  // (absolute - fraction) is a multiple of 100, so the division is exact.
  return `${sign}${(absolute - fraction) / 100}.${String(fraction).padStart(2, '0')}`;
}

/** BT amounts carry the document currency (PEPPOL-EN16931-R051). */
export function amount(name: string, ore: number, currency: string): XmlElement {
  return value(name, oreToAmount(ore), { currencyID: currency });
}

const isoDate = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** PEPPOL-EN16931-F001: YYYY-MM-DD, nothing else. */
export function date(name: string, isoCalendarDate: string): XmlElement {
  if (!isoDate.test(isoCalendarDate)) throw new Error(`EHF: ${name} "${isoCalendarDate}" is not a YYYY-MM-DD date`);
  return value(name, isoCalendarDate);
}
