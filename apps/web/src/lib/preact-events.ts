import { options } from 'preact';

/**
 * The app runs on preact/compat (docs/decisions/021-preact-runtime.md). React hands a handler a
 * SyntheticEvent whose fields (key, target, currentTarget, shiftKey, …) are its own properties;
 * Preact hands it the DOM event, whose fields are getters on the event's prototype. React Aria
 * copies keyboard events with `{ ...event }` (its createEventHandler, behind useKeyboard) and reads
 * key, target and currentTarget from the copy: copied from a DOM event, the copy has none of
 * them, and React Aria ignores the key as if it came through a portal. Every keyboard shortcut of
 * its widgets is then dead: arrows and Page Up/Down in the calendar, Escape on popovers, arrows
 * in date segments.
 *
 * This hook gives each keyboard event those fields as its own enumerable getters (setters where
 * the DOM has them, e.g. cancelBubble), which read the DOM event when the copy is made, so the
 * copy is what React Aria expects. Other events are left alone: React Aria copies only these.
 * Importing this module installs the hook once; lib/react-aria.ts (with the widgets) and the component
 * tests import it.
 */
const patched = new WeakSet<Event>();
type Accessor = { name: string; get: () => unknown; set: ((value: unknown) => void) | undefined };
const accessorsOf = new Map<object, Accessor[]>();

/** The accessor properties of an event's prototype chain (cached per prototype: one per event type). */
function accessors(event: Event): Accessor[] {
  const prototype = Object.getPrototypeOf(event) as object;
  let found = accessorsOf.get(prototype);
  if (!found) {
    found = [];
    const seen = new Set<string>();
    for (let level: object | null = prototype; level && level !== Object.prototype; level = Object.getPrototypeOf(level) as object | null) {
      for (const [name, { get, set }] of Object.entries(Object.getOwnPropertyDescriptors(level))) {
        if (!get || seen.has(name)) continue;
        seen.add(name);
        found.push({ name, get, set });
      }
    }
    accessorsOf.set(prototype, found);
  }
  return found;
}

/** Gives `event` the fields of its prototype chain as own enumerable accessors (once per event). */
function spreadable(event: Event): void {
  if (patched.has(event)) return;
  patched.add(event);
  for (const { name, get, set } of accessors(event)) {
    if (Object.prototype.hasOwnProperty.call(event, name)) continue;
    Object.defineProperty(event, name, {
      configurable: true,
      enumerable: true,
      get: () => get.call(event),
      ...(set ? { set: (value: unknown) => set.call(event, value) } : {}),
    });
  }
}

const previous = options.event;
options.event = (event) => {
  const handled = previous ? previous(event) : event;
  if (handled instanceof KeyboardEvent) spreadable(handled);
  return handled;
};
