import { formatShortDate } from '@minside/domain';
import { amountDueOre, zeroRateReasons, type BillingDocumentContent } from './content.ts';
import { documentAmount, formatAccountNumber, formatOrganizationNumber, ink, muted, page, rule, type Sheet } from './pdf-sheet.ts';

/** The parts of an invoice or credit note, top to bottom, each drawn from the document's frozen content (pdf.ts calls them in order). */

/** The lines, from `top`: returns the y under them and the columns the totals line up with. */
export function drawLines(sheet: Sheet, content: BillingDocumentContent, top: number): { y: number; columns: Record<'description' | 'period' | 'vat' | 'amount', number> } {
  const { doc, root, left, right, width, artifact } = sheet;
  const isInvoice = content.kind === 'INVOICE';
  // The lines: what was delivered, for which period, the VAT rate and the amount.
  let y = top;
  const columns = { description: left, period: left + width * 0.5, vat: left + width * 0.72, amount: left + width * 0.8 };
  const lineTable = doc.struct('Table');
  root.add(lineTable);
  const headRow = doc.struct('TR');
  lineTable.add(headRow);
  const head = (label: string, x: number, columnWidth: number, align: 'left' | 'right' = 'left') =>
    headRow.add(doc.struct('TH', {}, () => doc.font('Bold').fontSize(9).fillColor(ink).text(label, x, y, { width: columnWidth, align })));
  head('Beskrivelse', columns.description, width * 0.48);
  head('Periode', columns.period, width * 0.22);
  head('Mva', columns.vat, width * 0.08, 'right');
  head(isInvoice ? 'Beløp' : 'Kreditert', columns.amount, width * 0.2, 'right');
  y += 16;
  artifact(() =>
    doc
      .moveTo(left, y - 3)
      .lineTo(right, y - 3)
      .lineWidth(0.6)
      .strokeColor(rule)
      .stroke(),
  );
  for (const line of content.lines) {
    const row = doc.struct('TR');
    lineTable.add(row);
    let rowEnd = y;
    row.add(
      doc.struct('TD', {}, () => {
        doc
          .font('Regular')
          .fontSize(10)
          .fillColor(ink)
          .text(line.description, columns.description, y + 4, { width: width * 0.48, lineGap: 1.5 });
        rowEnd = Math.max(rowEnd, doc.y);
      }),
    );
    row.add(
      doc.struct('TD', {}, () =>
        doc
          .font('Regular')
          .fontSize(10)
          .text(`${formatShortDate(line.periodFrom)}–\n${formatShortDate(line.periodTo)}`, columns.period, y + 4, { width: width * 0.22 }),
      ),
    );
    rowEnd = Math.max(rowEnd, doc.y);
    row.add(
      doc.struct('TD', {}, () =>
        doc
          .font('Regular')
          .fontSize(10)
          .text(`${line.vatRatePercent} %`, columns.vat, y + 4, { width: width * 0.08, align: 'right' }),
      ),
    );
    row.add(
      doc.struct('TD', {}, () =>
        doc
          .font('Regular')
          .fontSize(10)
          .text(documentAmount(line.amountOre), columns.amount, y + 4, { width: width * 0.2, align: 'right' }),
      ),
    );
    y = rowEnd + 8;
    artifact(() => doc.moveTo(left, y).lineTo(right, y).lineWidth(0.4).strokeColor(rule).stroke());
  }
  lineTable.end();
  return { y, columns };
}

/** The totals, the VAT note and (a credit note) why and how it is settled; returns the y under them. */
export function drawTotals(sheet: Sheet, content: BillingDocumentContent, top: number, columns: { period: number; amount: number }): number {
  const { doc, root, left, width, text } = sheet;
  const { seller } = content;
  const isInvoice = content.kind === 'INVOICE';
  let y = top;
  // Totals, VAT shown even at zero with the section of the law that makes it zero.
  y += 10;
  const setOffs = content.setOffs ?? [];
  const dueOre = amountDueOre(content);
  const totals: [string, string, boolean][] = [
    ['Sum eksklusive mva', documentAmount(content.totals.netOre), false],
    ['Mva 0 %', documentAmount(content.totals.vatOre), false],
    // A credit note set off against the invoice is not a line of the sale (the note reduced the sale
    // already): the total stands, and what is due is less by the note.
    ...(setOffs.length > 0
      ? [
          ['Sum inkludert mva', documentAmount(content.totals.totalOre), false] as [string, string, boolean],
          ...setOffs.map((setOff): [string, string, boolean] => [`Fratrukket kreditnota ${setOff.creditNoteNumber}`, documentAmount(-setOff.amountOre), false]),
        ]
      : []),
    [isInvoice ? 'Å betale' : 'Kreditert beløp', documentAmount(isInvoice ? dueOre : content.totals.totalOre), true],
  ];
  // "Fratrukket kreditnota 90000123" needs more room than the other labels; documents without one keep the layout they were issued with.
  const labelX = setOffs.length > 0 ? left + width * 0.4 : columns.period;
  const totalsTable = doc.struct('Table');
  root.add(totalsTable);
  for (const [label, value, strong] of totals) {
    const row = doc.struct('TR');
    totalsTable.add(row);
    row.add(
      doc.struct('TH', {}, () =>
        doc
          .font(strong ? 'Bold' : 'Regular')
          .fontSize(strong ? 12 : 10)
          .fillColor(ink)
          .text(label, labelX, y, { width: columns.amount - labelX }),
      ),
    );
    row.add(
      doc.struct('TD', {}, () =>
        doc
          .font(strong ? 'Bold' : 'Regular')
          .fontSize(strong ? 12 : 10)
          .fillColor(ink)
          .text(value, columns.amount - width * 0.05, y, { width: width * 0.25, align: 'right' }),
      ),
    );
    y += strong ? 20 : 15;
  }
  totalsTable.end();
  const bases = [...new Set(content.lines.map((line) => line.zeroRateBasis))];
  // A seller outside the VAT register charges no VAT at all (the EHF document says category O); zero-rating is for the registered.
  const vatNote = seller.vatRegistered
    ? bases.map((basis) => `0 % mva: ${zeroRateReasons[basis]}.`).join('\n')
    : 'Selger er ikke registrert i Merverdiavgiftsregisteret. Det beregnes ikke merverdiavgift.';
  y = text(root, 'P', vatNote, left, y + 8, { size: 9, color: muted });

  if (content.credits) {
    y = text(root, 'P', `Årsak: ${content.credits.reason}`, left, y + 14, { size: 10 });
    y = text(root, 'P', content.credits.settlement, left, y + 4, { size: 10 });
  }
  return y;
}

/** "Paid by credit note", or the payment box with the title's account and the invoice's KID. */
export function drawPayment(sheet: Sheet, content: BillingDocumentContent, top: number): void {
  const { doc, root, left, width, text, artifact } = sheet;
  const { seller } = content;
  const isInvoice = content.kind === 'INVOICE';
  const setOffs = content.setOffs ?? [];
  const dueOre = amountDueOre(content);
  let y = top;
  // How to pay: the title's own account and the invoice's KID.
  if (isInvoice && setOffs.length > 0 && dueOre <= 0) {
    y = text(root, 'P', 'Fakturaen er betalt med kreditnota. Du skal ikke betale noe.', left, y + 14, { font: 'Bold', size: 11 });
  }

  if (content.payment && content.dueOn && (dueOre > 0 || setOffs.length === 0)) {
    const boxTop = Math.max(y + 28, 560);
    artifact(() =>
      doc
        .roundedRect(left - 8, boxTop - 12, width + 16, 132, 4)
        .lineWidth(1)
        .strokeColor(ink)
        .stroke(),
    );
    text(root, 'H2', 'Betalingsinformasjon', left, boxTop, { font: 'Bold', size: 12 });
    const payTable = doc.struct('Table');
    root.add(payTable);
    const payRows: [string, string][] = [
      ['Kontonummer', formatAccountNumber(content.payment.accountNumber)],
      ['KID', content.payment.kid],
      ['Beløp', documentAmount(dueOre)],
      ['Forfallsdato', formatShortDate(content.dueOn)],
      ['Betalingsmottaker', seller.legalName],
    ];
    let payY = boxTop + 22;
    for (const [label, value] of payRows) {
      const row = doc.struct('TR');
      payTable.add(row);
      row.add(doc.struct('TH', {}, () => doc.font('Regular').fontSize(10).fillColor(muted).text(label, left, payY, { width: 130 })));
      row.add(
        doc.struct('TD', {}, () =>
          doc
            .font('Bold')
            .fontSize(11)
            .fillColor(ink)
            .text(value, left + 130, payY - 1, { width: width - 130 }),
        ),
      );
      payY += 18;
    }
    payTable.end();
  }
}

/** Who the seller is, at the foot of every document. */
export function drawFooter(sheet: Sheet, content: BillingDocumentContent): void {
  const { doc, root, left, text } = sheet;
  const { seller } = content;
  // Footer: who the seller is, on every document.
  const footer = [
    seller.legalName,
    ...(seller.street ? [`${seller.street}, ${seller.postalCode} ${seller.town}`] : []),
    `Org.nr. ${formatOrganizationNumber(seller.organizationNumber, seller.vatRegistered)}`,
  ].join(' · ');
  // Below the bottom margin: without this pdfkit would start a second page for it.
  doc.page.margins.bottom = 0;
  text(root, 'P', footer, left, page.height - 40, { size: 8, color: muted, align: 'left' });
}
