import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { expect } from 'vitest';

/**
 * The error summary of a form (components/form.tsx, issue 25.12) as the user meets it: after a
 * submit that ends in field errors it has the focus, says "Det er noe som må rettes", and lists
 * each field's own message as a link. Answers the summary.
 */
export async function expectFocusedSummary(messages: string[]): Promise<HTMLElement> {
  const summary = await screen.findByRole('alert', { name: 'Det er noe som må rettes' });
  expect(within(summary).getByRole('heading').textContent).toBe('Det er noe som må rettes');
  await waitFor(() => expect(document.activeElement).toBe(summary));
  expect(
    within(summary)
      .getAllByRole('link')
      .map((link) => link.textContent),
  ).toEqual(messages);
  return summary;
}

/** Follows the summary's link with this text, and answers what has the focus then. */
export function followSummaryLink(summary: HTMLElement, message: string): Element | null {
  // jsdom lays nothing out and has no CSS object: the browser's scrollIntoView (the question
  // scrolls into view) and CSS.escape (the label of an id) are stood in for.
  if (!('scrollIntoView' in Element.prototype)) Object.assign(Element.prototype, { scrollIntoView: () => {} });
  if (typeof (globalThis as { CSS?: { escape?: unknown } }).CSS?.escape !== 'function') Object.assign(globalThis, { CSS: { escape: (value: string) => value.replace(/["\\]/g, '\\$&') } });
  fireEvent.click(within(summary).getByRole('link', { name: message }));
  return document.activeElement;
}
