/** SPEC §3 Experiment record. */
export interface Experiment {
  id: string;
  name: string;
  variant: string;
  platform: string;
}

/** SPEC §9: experiments are kept in local storage under this key. */
export const EXPERIMENTS_KEY = 'experiments';
/** Links from the titles' sites name the experiments a reader is in: `?exp={id}:{variant}` (repeatable). */
export const EXPERIMENT_PARAMETER = 'exp';
const EXPERIMENT_PLATFORM = 'minside';

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const part = /^[A-Za-z0-9_.-]{1,64}$/;

function isExperiment(value: unknown): value is Experiment {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return ['id', 'name', 'variant', 'platform'].every((key) => typeof record[key] === 'string' && record[key] !== '');
}

export function experimentsFromSearch(search: URLSearchParams): Experiment[] {
  const found: Experiment[] = [];
  for (const value of search.getAll(EXPERIMENT_PARAMETER)) {
    const [id = '', variant = '', ...rest] = value.split(':');
    if (rest.length > 0 || !part.test(id) || !part.test(variant)) continue;
    found.push({ id, name: id, variant, platform: EXPERIMENT_PLATFORM });
  }
  return found;
}

/**
 * SPEC §5: the stored experiments are used only when they form a non-empty array (of
 * experiment records); anything else in the key counts as none.
 */
export function readExperiments(storage: Pick<Storage, 'getItem'>): Experiment[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(storage.getItem(EXPERIMENTS_KEY) ?? 'null');
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return undefined;
  const experiments = parsed.filter(isExperiment);
  return experiments.length > 0 ? experiments : undefined;
}

/**
 * SPEC §5: experiments are stored only if analytics consent is set. A newer assignment to the
 * same experiment replaces the older one. Returns whether anything was stored.
 */
export function storeExperiments(storage: KeyValueStorage, experiments: readonly Experiment[], analyticsGranted: boolean): boolean {
  if (!analyticsGranted || experiments.length === 0) return false;
  const byId = new Map((readExperiments(storage) ?? []).map((experiment) => [experiment.id, experiment]));
  for (const experiment of experiments) byId.set(experiment.id, experiment);
  storage.setItem(EXPERIMENTS_KEY, JSON.stringify([...byId.values()]));
  return true;
}

export function forgetExperiments(storage: KeyValueStorage): void {
  storage.removeItem(EXPERIMENTS_KEY);
}
