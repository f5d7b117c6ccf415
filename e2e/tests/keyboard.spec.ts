import AxeBuilder from '@axe-core/playwright';
import { expect as baseExpect, test, type Locator, type Page } from '../fixtures.ts';
import { DEMO_PASSWORD, adresseavisen, apiCall, varden } from './support.ts';

// The server shares its machine with other jobs; a page that takes longer than 5 s to settle is slow, not broken.
const expect = baseExpect.configure({ timeout: 30_000 });

// Issue 10 item 7: the three journeys a keyboard user must be able to finish, with nothing
// but the keyboard (Tab, Shift+Tab, Enter, Space, arrows, typing): signing in, a vacation
// stop with the date picker, and paying an invoice by card at the payment provider (Vipps
// MobilePay's card form, on the simulator embedded in the server). Every element
// that Tab reaches on the way must show where the focus is. The personas are the journeys'
// own: varden@'s delivery changes and admin@'s unpaid invoice are touched by no other spec
// (papir's belong to delivery.spec.ts and billing.spec.ts).

/**
 * How the focused element shows its focus: an outline or box-shadow of its own, or a
 * focus-within outline on the field that wraps it (a date field's segments). Null when
 * nothing shows it.
 */
async function focusIndicator(page: Page): Promise<{ element: string; indicator: string | null }> {
  return page.evaluate(() => {
    const active = document.activeElement;
    const describe = (element: Element) => {
      const name = element.getAttribute('aria-label') ?? (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 50);
      return `<${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}> "${name}"`;
    };
    if (!active || active === document.body || active === document.documentElement) return { element: 'nothing', indicator: 'none needed' };
    const seen = (color: string) => color !== 'transparent' && !/rgba\([^)]*,\s*0\)$/.test(color);
    const outline = (element: Element) => {
      const style = getComputedStyle(element);
      return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1 && seen(style.outlineColor) ? `outline ${style.outlineWidth} ${style.outlineStyle} ${style.outlineColor}` : null;
    };
    const rect = active.getBoundingClientRect();
    if (rect.width < 2 || rect.height < 2 || rect.bottom < 0 || rect.top > window.innerHeight || rect.right < 0 || rect.left > window.innerWidth) {
      return { element: describe(active), indicator: null };
    }
    const own = outline(active) ?? (getComputedStyle(active).boxShadow !== 'none' ? `box-shadow ${getComputedStyle(active).boxShadow}` : null);
    if (own) return { element: describe(active), indicator: own };
    // Only an outline counts on a wrapper: cards wear box-shadows whether focused or not.
    for (let wrapper = active.parentElement, depth = 0; wrapper && depth < 3; wrapper = wrapper.parentElement, depth++) {
      const ring = outline(wrapper);
      if (ring) return { element: describe(active), indicator: `${ring} on ${describe(wrapper)}` };
    }
    return { element: describe(active), indicator: null };
  });
}

async function expectVisibleFocus(page: Page): Promise<void> {
  const { element, indicator } = await focusIndicator(page);
  expect(indicator, `focus on ${element} is not visible`).not.toBeNull();
}

/** Presses `key` (Tab or Shift+Tab) until `target` has the focus, checking the focus is visible at every stop. */
async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab', max = 60): Promise<void> {
  await expect(target).toBeAttached();
  for (let presses = 0; presses < max; presses++) {
    await page.keyboard.press(key);
    await expectVisibleFocus(page);
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`${String(target)} was not reached with ${max} × ${key}`);
}

/** At the embedded provider's login page: the e-mail field has the focus; type, Tab, type, Tab, Enter. */
async function signInByKeyboard(page: Page, email: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Logg inn' })).toBeVisible();
  await expect(page.getByLabel('E-post')).toBeFocused();
  await expectVisibleFocus(page);
  await page.keyboard.type(email);
  await tabTo(page, page.getByLabel('Passord'));
  await page.keyboard.type(DEMO_PASSWORD);
  await tabTo(page, page.getByRole('button', { name: 'Logg inn' }));
  await page.keyboard.press('Enter');
}

async function expectNoSeriousViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
}

test.use({ viewport: { width: 1280, height: 900 } });
// Every key press is a round trip to the browser, and a journey makes a few hundred.
test.describe.configure({ timeout: 180_000 });

test('signing in: from the header through the provider’s login page and back, then on to Min Side', async ({ page }) => {
  await page.goto(adresseavisen('/kundeservice'));
  await expect(page.getByRole('heading', { level: 1, name: 'Kundeservice' })).toBeVisible();

  // The first Tab stop is the skip link; it shows itself and jumps to the content.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: /Hopp til (hoved)?innhold/ });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await expectVisibleFocus(page);

  const banner = page.getByRole('banner');
  await tabTo(page, banner.getByRole('link', { name: 'Logg inn' }));
  await page.keyboard.press('Enter');
  await signInByKeyboard(page, 'student@minside.test');

  await expect(page).toHaveURL(adresseavisen('/kundeservice'));
  await expect(banner.getByRole('button', { name: 'Logg ut' })).toBeVisible();
  // Back on the portal, Shift+Tab walks back into the header as well.
  await tabTo(page, banner.getByRole('navigation', { name: 'Hovedmeny' }).getByRole('link', { name: 'Min Side' }));
  await page.keyboard.press('Enter');
  const heading = page.getByRole('heading', { level: 1, name: 'Min Side' });
  await expect(heading).toBeFocused();
  await tabTo(page, banner.getByRole('navigation', { name: 'Hovedmeny' }).getByRole('link', { name: 'Kundeservice' }), 'Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Kundeservice' })).toBeFocused();
});

// Every Tab stop of the pages people use most, front to back, shows the focus (read-only visits).
for (const path of ['/', '/fakturaoversikt', '/endre-avislevering', '/endre-profil', '/kundeservice']) {
  test(`every Tab stop on ${path} shows the focus`, async ({ page }) => {
    // A public page never sends a visitor to the login, so sign in on Min Side first and go there after.
    const isPublic = path === '/kundeservice';
    await page.goto(adresseavisen(isPublic ? '/' : path));
    await signInByKeyboard(page, 'papir@minside.test');
    if (isPublic) {
      // Back on Min Side first: a goto while the login still redirects is aborted by it.
      await expect(page.getByRole('heading', { level: 1, name: 'Min Side' })).toBeVisible();
      await page.goto(adresseavisen(path));
    }
    await expect(page).toHaveURL(adresseavisen(path));
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    // Round the page once: from wherever the focus is, past the end and on from the top
    // (the header) until the first stop comes round again.
    const stops: string[] = [];
    let wrapped = false;
    for (let presses = 0; presses < 200; presses++) {
      await page.keyboard.press('Tab');
      const { element, indicator } = await focusIndicator(page);
      if (element === 'nothing') {
        wrapped = true;
        continue;
      }
      if (wrapped && element === stops[0]) break;
      stops.push(element);
      expect(indicator, `focus on ${element} (Tab stop ${stops.length}) is not visible`).not.toBeNull();
    }
    expect(wrapped, 'the Tab order reaches the end of the page').toBe(true);
    expect(stops.length).toBeGreaterThan(5);
  });
}

interface Calendar {
  publicationDays: string[];
  today: string;
}
interface DeliveryChange {
  id: string;
  type: string;
  from: string;
  to: string | null;
}

const monthAndYear = new Intl.DateTimeFormat('nb-NO', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const longDate = new Intl.DateTimeFormat('nb-NO', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const asDate = (iso: string) => new Date(`${iso}T00:00:00Z`);

test('a vacation stop: dates typed and picked in the calendar, reviewed, confirmed and deleted again', async ({ page }) => {
  await page.goto(varden('/endre-avislevering'));
  await signInByKeyboard(page, 'varden@minside.test');
  await expect(page).toHaveURL(varden('/endre-avislevering'));
  await expect(page.getByRole('heading', { level: 1, name: 'Ferie og leveringsendring' })).toBeVisible();

  const changesNow = async () => ((await apiCall(page, '/api/delivery/changes?titleCode=VAR')).body as { changes: DeliveryChange[] }).changes;
  expect(
    (await changesNow()).filter((change) => change.type === 'STOP'),
    'varden@ starts without vacation stops',
  ).toEqual([]);
  const { publicationDays, today } = (await apiCall(page, '/api/delivery/calendar?titleCode=VAR')).body as Calendar;
  const [year, month] = today.split('-').map(Number) as [number, number];
  const nextMonth = `${month === 12 ? year + 1 : year}-${String(month === 12 ? 1 : month + 1).padStart(2, '0')}`;
  const days = publicationDays.filter((day) => day.startsWith(nextMonth));
  const [from, , , to] = days as [string, string, string, string];

  // "Stopp avisen" is the chosen kind; the start date is typed into the field's segments.
  await tabTo(page, page.getByRole('radio', { name: /Stopp avisen/ }));
  await expect(page.getByRole('radio', { name: /Stopp avisen/ })).toBeChecked();
  await tabTo(page, page.getByRole('spinbutton', { name: 'dag, Fra og med' }));
  await page.keyboard.type(from.split('-').reverse().join(''));
  await expect(page.getByRole('group', { name: 'Fra og med', exact: true })).toContainText(from.split('-').reverse().join('.'));

  // The end date is picked in the calendar: open it, Page Down to the month, arrows to the day, Enter.
  await tabTo(page, page.getByRole('button', { name: 'Velg dato i kalender: Til og med' }));
  await page.keyboard.press('Enter');
  const calendar = page.getByRole('dialog', { name: 'Til og med' });
  await expect(calendar).toBeVisible();
  const target = asDate(to);
  for (let presses = 0; presses < 24 && !(await calendar.getByRole('heading').innerText()).toLowerCase().includes(monthAndYear.format(target)); presses++) {
    await page.keyboard.press('PageDown');
  }
  await expect(calendar.getByRole('heading')).toHaveText(new RegExp(monthAndYear.format(target), 'i'));
  const focusedDay = async () => Number(await page.evaluate(() => document.activeElement?.textContent?.trim()));
  for (let presses = 0; presses < 31 && (await focusedDay()) !== target.getUTCDate(); presses++) {
    const before = await focusedDay();
    await page.keyboard.press(before < target.getUTCDate() ? 'ArrowRight' : 'ArrowLeft');
    // The calendar moves the focus in its next render: read the day once it has moved, or the next
    // press goes by a stale day (a run once ended on the day before the target).
    await expect.poll(focusedDay).not.toBe(before);
    await expectVisibleFocus(page);
  }
  expect(await focusedDay()).toBe(target.getUTCDate());
  await page.keyboard.press('Enter');
  await expect(calendar).toBeHidden();
  await expect(page.getByRole('group', { name: 'Til og med', exact: true })).toContainText(to.split('-').reverse().join('.'));

  await tabTo(page, page.getByRole('button', { name: 'Se over endringen' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Se over før du bekrefter' })).toBeFocused();
  await expect(page.getByRole('list', { name: 'Aviser som berøres' }).getByRole('listitem')).toHaveCount(days.indexOf(to) - days.indexOf(from) + 1);
  await tabTo(page, page.getByRole('button', { name: 'Bekreft endringen' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('Endringen er registrert.')).toBeVisible();

  const card = page.getByRole('list', { name: 'Dine endringer' }).getByRole('article', { name: `Stopp avisen: ${longDate.format(asDate(from))} – ${longDate.format(target)}` });
  await expect(card).toBeVisible();
  // Where the focus went after saving depends on the page; the card's button is reached either way.
  const remove = card.getByRole('button', { name: 'Slett' });
  const forward = await remove.evaluate((button) => Boolean(document.activeElement && document.activeElement.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING));
  await tabTo(page, remove, forward ? 'Tab' : 'Shift+Tab');
  await page.keyboard.press('Enter');
  await tabTo(page, card.getByRole('button', { name: 'Ja, slett' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('Endringen er slettet.')).toBeVisible();
  expect(
    (await changesNow()).filter((change) => change.type === 'STOP'),
    'the data is as it was',
  ).toEqual([]);
});

interface InvoiceBody {
  ariaInvoiceNo: number;
  amountOre: number;
  status: 'PAID' | 'UNPAID' | 'OVERDUE';
}

test('paying an invoice: from the overview to the provider’s page and back to Betalt', async ({ page }) => {
  await page.goto(adresseavisen('/fakturaoversikt'));
  await signInByKeyboard(page, 'admin@firma.test');
  await expect(page).toHaveURL(adresseavisen('/fakturaoversikt'));
  await expect(page.getByRole('heading', { level: 1, name: 'Fakturaoversikt' })).toBeVisible();
  const session = (await apiCall(page, '/api/session?titleCode=ADR')).body as { subscription: { ariaAccountNo: number } };
  const invoices = ((await apiCall(page, `/api/invoice/${session.subscription.ariaAccountNo}`)).body as { invoices: InvoiceBody[] }).invoices;
  const unpaid = invoices.find((invoice) => invoice.status !== 'PAID');
  if (!unpaid) throw new Error('admin@ has no unpaid invoice: the demo seed gives one, and only this spec pays it');
  const no = unpaid.ariaInvoiceNo;
  const kroner = `${new Intl.NumberFormat('nb-NO').format(unpaid.amountOre / 100)} kr`;

  await tabTo(page, page.getByRole('link', { name: `Betal faktura ${no}` }).first());
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(adresseavisen(`/betal-faktura/${no}`));
  await expect(page.getByRole('heading', { level: 1, name: 'Betal faktura' })).toBeFocused();
  await expect(page.getByRole('radio', { name: /Vipps/ })).toBeChecked();
  // The unpaid pay form is only seen here: axe judges it before it is used.
  await expectNoSeriousViolations(page);

  // In a radio group Tab reaches the chosen one; the arrow keys change the choice.
  await tabTo(page, page.getByRole('radio', { name: /Vipps/ }));
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('radio', { name: /Betalingskort/ })).toBeChecked();
  await expect(page.getByRole('radio', { name: /Betalingskort/ })).toBeFocused();
  await expectVisibleFocus(page);
  await tabTo(page, page.getByRole('button', { name: `Betal ${kroner} med kort` }));
  await page.keyboard.press('Enter');

  // The card form at Vipps MobilePay: the simulator embedded in the server, with its test card.
  await expect(page).toHaveURL(/\/simulator\/landing\?reference=/);
  await expect(page.getByRole('heading', { level: 1, name: /^Betal [\d\s]+,\d\d\skr$/ })).toBeVisible();
  await expect(page.getByText('Testkort (Visa)')).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Godkjenn', exact: true }));
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(new RegExp(`/betal-faktura/${no}\\?paymentId=`));
  const receipt = page.getByRole('region', { name: 'Kvittering' });
  // The provider's return is a full page load of the app: slower than a step inside it.
  await expect(receipt).toContainText('Betalingen er gjennomført. Takk!', { timeout: 60_000 });
  // The outcome takes the focus once known (for a screen reader): the walk starts from there, not
  // from before the page moved it (a Tab pressed first was once followed by that move).
  await expect(receipt.getByRole('heading', { name: 'Kvittering' })).toBeFocused();
  await tabTo(page, receipt.getByRole('link', { name: 'Til fakturaoversikten' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Fakturaoversikt' })).toBeFocused();
  const paidRow = page
    .getByRole('table')
    .getByRole('row')
    .filter({ hasText: `Fakturanr. ${no}` });
  await expect(paidRow).toContainText('Betalt');
  await expect(paidRow).not.toContainText('Ikke betalt');
});
