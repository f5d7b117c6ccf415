import type PDFDocument from 'pdfkit';
import { formatKroner } from '@minside/domain';

/** The page and the drawing primitives every section of a document uses (pdf.ts sets them up, pdf-sections.ts draws). */

/** "962806112" → "962 806 112"; with MVA: "NO 962 806 112 MVA" (as the VAT register writes it). */
export function formatOrganizationNumber(organizationNumber: string, vatRegistered: boolean): string {
  const grouped = organizationNumber.replace(/^(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3');
  return vatRegistered ? `NO ${grouped} MVA` : grouped;
}

/** "15031240007" → "1503.12.40007": how Norwegian account numbers are printed. */
export function formatAccountNumber(digits: string): string {
  return digits.replace(/^(\d{4})(\d{2})(\d{5})$/, '$1.$2.$3');
}

/** Documents always show øre, so amounts line up in their columns. */
export const documentAmount = (ore: number) => formatKroner(ore, { withOre: true });

export const page = { width: 595.28, height: 841.89, margin: 56 };
export const ink = '#1b1c1f';
export const muted = '#4c5058';
export const rule = '#c9c6bf';

type Doc = InstanceType<typeof PDFDocument>;
type StructParent = ReturnType<Doc['struct']>;

interface TextOptions {
  font?: 'Regular' | 'Bold';
  size?: number;
  color?: string;
  width?: number;
  align?: 'left' | 'right';
}

/** A page being drawn: its document, the tagged root, the text column, and the two ways to put something on it. */
export interface Sheet {
  doc: Doc;
  root: StructParent;
  left: number;
  right: number;
  width: number;
  /** Text in one tagged element (a heading, a paragraph, or a table cell); returns the y under it. */
  text: (parent: StructParent, role: 'H1' | 'H2' | 'P', value: string, x: number, y: number, options?: TextOptions) => number;
  /** Lines and boxes: layout, not content, so screen readers skip them. */
  artifact: (paint: () => void) => void;
}

export function sheetOf(doc: Doc): Sheet {
  const left = page.margin;
  const right = page.width - page.margin;
  const width = right - left;
  const root = doc.struct('Document');
  doc.addStructure(root);
  const text: Sheet['text'] = (parent, role, value, x, y, options = {}) => {
    const element = doc.struct(role, {}, () => {
      doc
        .font(options.font ?? 'Regular')
        .fontSize(options.size ?? 10)
        .fillColor(options.color ?? ink)
        .text(value, x, y, { width: options.width ?? width, align: options.align ?? 'left', lineGap: 1.5 });
    });
    parent.add(element);
    return doc.y;
  };
  const artifact = (paint: () => void) => {
    doc.markContent('Artifact', { type: 'Layout' });
    paint();
    doc.endMarkedContent();
  };
  return { doc, root, left, right, width, text, artifact };
}
