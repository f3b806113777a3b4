// The call tree of a profile kept by `PROFILE_OUT=<file> bench/profile-service.mjs <route>`: each call path's
// total time (its callees included) per request, for the samples taken while the load ran; the children of a node
// are merged by function, and paths below MIN µs per request are left out.
// Run: node bench/profile-tree.mjs <file> [MIN µs per request, default 20] [a function name to start from]
import { readFileSync } from 'node:fs';

const [file, minArg, focus] = process.argv.slice(2);
const MIN = Number(minArg ?? 20);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
const nameOf = (id) => {
  const { functionName, url, lineNumber } = nodes.get(id).callFrame;
  const where = url.replace(/.*node_modules\//, '').replace(/.*\/(server|src|sandbox)\//, '$1/');
  return `${functionName || '(anonymous)'} ${where}${where ? `:${lineNumber + 1}` : ''}`;
};

/** A tree keyed by function name along the path from the root. */
const root = { name: '(root)', micros: 0, children: new Map() };
let time = profile.startTime;
profile.samples.forEach((id, index) => {
  const delta = profile.timeDeltas[index];
  time += delta;
  if (time < profile.window[0] || time > profile.window[1]) return;
  const path = [];
  for (let at = id; at !== undefined; at = parents.get(at)) path.push(nameOf(at));
  path.reverse();
  // Start at the focus function (its first occurrence) when one is named.
  let start = 1;
  if (focus) {
    start = path.findIndex((name) => name.startsWith(focus));
    if (start < 0) return;
  }
  root.micros += delta;
  let node = root;
  for (const name of path.slice(start)) {
    let child = node.children.get(name);
    if (!child) node.children.set(name, (child = { name, micros: 0, children: new Map() }));
    child.micros += delta;
    node = child;
  }
});

const perRequest = (micros) => micros / profile.requests;
function print(node, depth) {
  console.log(`${perRequest(node.micros).toFixed(0).padStart(7)} µs  ${'  '.repeat(depth)}${node.name}`);
  for (const child of [...node.children.values()].sort((a, b) => b.micros - a.micros)) {
    if (perRequest(child.micros) >= MIN) print(child, depth + 1);
  }
}
console.log(`${profile.requests} requests; wall µs per request along each path (idle included at the top)`);
print(root, 0);
