import { Suspense, useLayoutEffect, type ReactElement } from 'react';
import { nextTask } from './next-task.ts';

/**
 * Hydration in parts (issue 27, docs/decisions/037): the parts of a server-rendered page below its
 * first screen are hydrated each in a task of its own, after the rest, so that no task blocks the
 * main thread long enough to count as a long task (50 ms on a phone). Preact keeps the markup of
 * a part that suspends while hydrating, and hydrates it when the suspension ends; until then the
 * part reads as the server rendered it, and its links work as plain links.
 *
 * Outside a page's first hydration (the server's render, a page the browser renders itself, any
 * later render) a part renders at once.
 */
let holding = false;
const held: (() => void)[] = [];
let onPartHydrated: (() => void) | null = null;

export interface PartCheck {
  /** At the start of a part's task, before it is hydrated. */
  before(): void;
  /** As soon as the part is hydrated, before anything else can change the page. */
  after(): void;
}

/**
 * Runs `hydrate` with the parts in `<HydrateLater>` held back, then hydrates them one task each,
 * in the page's order, calling `check` around each. Resolves once every part is hydrated.
 */
export async function hydrateInParts(hydrate: () => void, check: PartCheck): Promise<void> {
  holding = true;
  try {
    hydrate();
  } finally {
    // Only the first hydration holds parts back: any render after it shows them at once.
    holding = false;
  }
  for (const release of held.splice(0)) {
    await nextTask();
    check.before();
    onPartHydrated = check.after;
    // The part hydrates in the microtasks right after this, in this task.
    release();
    await nextTask();
    // A part that did not come back (its page was left meanwhile) is not waited for.
    onPartHydrated = null;
  }
}

function Later({ children }: { children: ReactElement }): ReactElement {
  // After the part's commit, before its effects or any later render can change the page.
  useLayoutEffect(() => {
    const hydrated = onPartHydrated;
    onPartHydrated = null;
    hydrated?.();
  }, []);
  if (holding) {
    throw new Promise<void>((resolve) => held.push(resolve));
  }
  return children;
}

/**
 * A part of a server-rendered page hydrated after the rest (`hydrateInParts`). Its child must
 * render exactly one element, always: Preact keeps the one element a suspended part stands on.
 */
export function HydrateLater({ children }: { children: ReactElement }) {
  return (
    <Suspense fallback={null}>
      <Later>{children}</Later>
    </Suspense>
  );
}
