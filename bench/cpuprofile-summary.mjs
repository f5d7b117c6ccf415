// Sums up a V8 CPU profile (`node --cpu-prof`, or bench/profile-home.ts): self time by package
// (node_modules package, our own file, Node's internals, GC, idle), the top functions by self
// time, and a text flame graph (the call tree, inclusive time, branches under MIN_PERCENT cut).
//   node cpuprofile-summary.mjs profiles/home-app.cpuprofile [TOP=25] [MIN_PERCENT=1.5]
import { readFileSync } from 'node:fs';

const [file, topArg, minArg] = process.argv.slice(2);
if (!file) throw new Error('usage: node cpuprofile-summary.mjs <file.cpuprofile> [top] [minPercent]');
const TOP = Number(topArg ?? 25);
const MIN_PERCENT = Number(minArg ?? 1.5);
const profile = JSON.parse(readFileSync(file, 'utf8'));

const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const self = new Map();
profile.samples.forEach((id, k) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[k] ?? 0)));
const total = [...self.values()].reduce((sum, value) => sum + value, 0);
const idleIds = new Set(profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').map((node) => node.id));
const idle = [...idleIds].reduce((sum, id) => sum + (self.get(id) ?? 0), 0);
const busy = total - idle;

/** Which package a frame belongs to: the node_modules package, our own workspace file, Node, or V8's pseudo-frames. */
function packageOf(callFrame) {
  const { url, functionName } = callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node:internal';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const own = /\/(apps|packages|bench)\/(.*)$/.exec(url);
  return own ? `${own[1]}/${own[2].split('?')[0]}` : url;
}

const label = (callFrame) => `${callFrame.functionName || '(anonymous)'} ${packageOf(callFrame)}:${callFrame.lineNumber + 1}`;
const percent = (value) => `${((100 * value) / busy).toFixed(1).padStart(5)} %`;
const ms = (value) => `${(value / 1000).toFixed(0).padStart(6)} ms`;

function table(title, entries) {
  console.log(`\n${title}`);
  for (const [name, value] of entries.sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${ms(value)} ${percent(value)}  ${name}`);
}

console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled, idle ${(idle / 1e6).toFixed(1)} s; percentages are of the busy ${(busy / 1e6).toFixed(1)} s`);
const byPackage = new Map();
const byFunction = new Map();
for (const [id, value] of self) {
  if (idleIds.has(id)) continue;
  const { callFrame } = nodes.get(id);
  byPackage.set(packageOf(callFrame), (byPackage.get(packageOf(callFrame)) ?? 0) + value);
  byFunction.set(label(callFrame), (byFunction.get(label(callFrame)) ?? 0) + value);
}
table('Self time by package', [...byPackage]);
table('Self time by function', [...byFunction]);

// Inclusive time per node, then the tree merged by label (the same function reached the same way).
const inclusive = new Map();
function inclusiveOf(id) {
  if (inclusive.has(id)) return inclusive.get(id);
  const node = nodes.get(id);
  const value = (idleIds.has(id) ? 0 : (self.get(id) ?? 0)) + (node.children ?? []).reduce((sum, child) => sum + inclusiveOf(child), 0);
  inclusive.set(id, value);
  return value;
}
const root = profile.nodes.find((node) => !parentOf.has(node.id));
inclusiveOf(root.id);
console.log(`\nText flame graph (inclusive time; branches under ${MIN_PERCENT} % of busy time left out)`);
function print(ids, depth) {
  const merged = new Map();
  for (const id of ids) {
    const node = nodes.get(id);
    const key = label(node.callFrame);
    const entry = merged.get(key) ?? { value: 0, children: [] };
    entry.value += inclusive.get(id);
    entry.children.push(...(node.children ?? []));
    merged.set(key, entry);
  }
  for (const [key, entry] of [...merged].sort((a, b) => b[1].value - a[1].value)) {
    if ((100 * entry.value) / busy < MIN_PERCENT) continue;
    console.log(`${percent(entry.value)} ${'  '.repeat(depth)}${key}`);
    print(entry.children, depth + 1);
  }
}
print(root.children ?? [], 0);
