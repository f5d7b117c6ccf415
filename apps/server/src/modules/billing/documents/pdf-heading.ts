import { formatShortDate } from '@minside/domain';
import type { BillingDocumentContent } from './content.ts';
import { formatOrganizationNumber, ink, muted, rule, type Sheet } from './pdf-sheet.ts';

/** The top of an invoice or credit note: who sends it, to whom, and the facts a bookkeeper looks for first. */

/** The wordmark and what the document is, the seller, the buyer where a window envelope shows it, and the document's facts; returns the y under them. */
export function drawHeading(sheet: Sheet, content: BillingDocumentContent): number {
  const { doc, root, left, right, width, text, artifact } = sheet;
  const { seller, buyer } = content;
  const isInvoice = content.kind === 'INVOICE';
  // Header: the title's wordmark (its name in its colour, as the portal's generated logo) and what the document is.
  text(root, 'P', seller.titleName, left, 48, { font: 'Bold', size: 24, color: /^#[0-9a-fA-F]{6}$/.test(seller.brandColor) ? seller.brandColor : ink, width: width * 0.62 });
  text(root, 'H1', isInvoice ? 'Faktura' : 'Kreditnota', left + width * 0.62, 50, { font: 'Bold', size: 22, width: width * 0.38, align: 'right' });

  // Seller.
  const sellerLines = [
    seller.legalName,
    ...(seller.street ? [seller.street, `${seller.postalCode} ${seller.town}`] : []),
    `Org.nr. ${formatOrganizationNumber(seller.organizationNumber, seller.vatRegistered)}`,
  ];
  text(root, 'P', sellerLines.join('\n'), left, 86, { size: 9, color: muted, width: width * 0.5 });
  text(root, 'P', [`Kundeservice: ${seller.customerCenterPhone}`, seller.customerCenterEmail, seller.pageUrl.replace(/^https?:\/\//, '')].join('\n'), left + width * 0.5, 86, {
    size: 9,
    color: muted,
    width: width * 0.5,
    align: 'right',
  });
  artifact(() => doc.moveTo(left, 140).lineTo(right, 140).lineWidth(0.6).strokeColor(rule).stroke());

  // Buyer, where a window envelope shows it, and the document's facts beside it.
  text(root, 'H2', 'Til', left, 158, { font: 'Bold', size: 9, color: muted, width: width * 0.5 });
  const buyerLines = [
    buyer.name,
    ...(buyer.postalAddress ? [...buyer.postalAddress.lines, `${buyer.postalAddress.postalCode} ${buyer.postalAddress.town}`] : [buyer.email]),
    ...(buyer.organizationNumber ? [`Org.nr. ${formatOrganizationNumber(buyer.organizationNumber, false)}`] : []),
  ];
  const buyerEnd = text(root, 'P', buyerLines.join('\n'), left, 172, { size: 11, width: width * 0.5 - 12 });

  const facts: [string, string][] = [
    [isInvoice ? 'Fakturanummer' : 'Kreditnotanummer', String(content.number)],
    [isInvoice ? 'Fakturadato' : 'Dato', formatShortDate(content.issuedOn)],
    ...(content.credits
      ? ([
          ['Gjelder faktura', String(content.credits.invoiceNumber)],
          ['Fakturaens dato', formatShortDate(content.credits.invoiceIssuedOn)],
        ] as [string, string][])
      : []),
    ['Kundenummer', String(buyer.customerNumber)],
    ...(buyer.reference ? ([['Deres referanse', buyer.reference]] as [string, string][]) : []),
    ...(content.dueOn ? ([['Forfallsdato', formatShortDate(content.dueOn)]] as [string, string][]) : []),
    ...(content.payment ? ([['KID', content.payment.kid]] as [string, string][]) : []),
  ];
  const factsTable = doc.struct('Table');
  root.add(factsTable);
  let factY = 158;
  for (const [label, value] of facts) {
    const row = doc.struct('TR');
    factsTable.add(row);
    row.add(
      doc.struct('TH', {}, () =>
        doc
          .font('Regular')
          .fontSize(9)
          .fillColor(muted)
          .text(label, left + width * 0.55, factY + 1, { width: width * 0.2 }),
      ),
    );
    row.add(
      doc.struct('TD', {}, () =>
        doc
          .font(label === 'Forfallsdato' ? 'Bold' : 'Regular')
          .fontSize(10)
          .fillColor(ink)
          .text(value, left + width * 0.75, factY, { width: width * 0.25, align: 'right' }),
      ),
    );
    // A long value (a reference) wraps: the next row starts under it.
    factY = Math.max(factY + 16, doc.y + 3);
  }
  factsTable.end();
  return Math.max(buyerEnd, factY);
}
