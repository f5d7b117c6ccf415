import { Component, Suspense, type ReactElement } from 'react';
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
const held: ((hydrated?: () => void) => void)[] = [];

export interface PartCheck {
  /** At the start of a part's task, before it is hydrated. */
  before(): void;
  /** As soon as the part is hydrated (its own layout effects have run), before its effects and any later render. */
  after(): void;
}

/**
 * Runs `hydrate` with the parts in `<HydrateLater>` held back, then hydrates them one task each,
 * in the page's order, calling `check` (when given) around each. Resolves once every part is
 * hydrated, or gone (its page left meanwhile).
 */
export async function hydrateInParts(hydrate: () => void, check?: PartCheck): Promise<void> {
  holding = true;
  try {
    hydrate();
  } finally {
    // Only the first hydration holds parts back: any render after it shows them at once.
    holding = false;
  }
  for (const release of held.splice(0)) {
    await nextTask();
    check?.before();
    // The part hydrates in the microtasks right after this, in this task.
    release(check?.after);
    await nextTask();
  }
}

/**
 * A class, not a function: its instance outlives the suspension (a function component's hooks do
 * not), so a part whose parent renders again before its task stays held, and then hydrates with
 * the children the server rendered (hydration patches no attributes) before it takes the new ones.
 */
class Later extends Component<{ children: ReactElement }> {
  /** The children of the render the server's markup came from: what the part hydrates with. */
  declare initial?: ReactElement;
  declare pending?: Promise<void>;
  declare released?: boolean;
  declare hydrated?: boolean;
  declare onHydrated?: () => void;

  override render(): ReactElement {
    if (holding) {
      this.initial = this.props.children;
      throw (this.pending = new Promise<void>((resolve) =>
        held.push((onHydrated) => {
          this.released = true;
          this.onHydrated = onHydrated;
          resolve();
        }),
      ));
    }
    if (this.pending && !this.released) throw this.pending;
    return this.initial && !this.hydrated ? this.initial : this.props.children;
  }

  override componentDidMount(): void {
    if (!this.initial) return;
    this.hydrated = true;
    this.onHydrated?.();
    // The parent rendered again while the part was held: now its current children, by an ordinary diff.
    if (this.props.children !== this.initial) this.forceUpdate();
  }
}

/**
 * A part of a server-rendered page hydrated after the rest (`hydrateInParts`). Its child must
 * render exactly one element, always (Preact keeps the one element a suspended part stands on),
 * and nothing in it may call `useId`: the ids after it would then differ from the server's.
 */
export function HydrateLater({ children }: { children: ReactElement }) {
  return (
    <Suspense fallback={null}>
      <Later>{children}</Later>
    </Suspense>
  );
}
