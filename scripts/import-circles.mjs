// The import circles of a source tree: every group of files that import each other round (the strongly connected
// components of the import graph, Tarjan's algorithm), largest first. Every relative `import`/`export … from` and
// `import(…)` counts, type-only ones included: a circle of types is still a circle a reader must hold at once.
// Run: node scripts/import-circles.mjs [dir, default server/src] [--max N: exit 1 when a circle has more than N files]
//   [--layer DIR=ALLOWED,…: exit 1 when a file under DIR imports a file outside DIR and the ALLOWED folders, e.g.
//    `--layer networks=core`: the networks are a leaf over core; packages, such as the protocol, are not files here]
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const args = process.argv.slice(2);
const maxAt = args.indexOf('--max');
const max = maxAt >= 0 ? Number(args[maxAt + 1]) : null;
const layers = args.flatMap((arg, i) => (args[i - 1] === '--layer' ? [arg] : [])).map((rule) => {
  const [dir, allowed = ''] = rule.split('=');
  return { dir, allowed: [dir, ...allowed.split(',').filter(Boolean)] };
});
const root = resolve(args.find((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--max' && args[i - 1] !== '--layer') ?? 'server/src');

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|mjs)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const files = sourceFiles(root);
const known = new Set(files);
const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The files a file imports inside the tree (a `.js` specifier names the `.ts` source). */
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const found = new Set();
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? match[3];
    if (!specifier?.startsWith('.')) continue;
    const base = resolve(dirname(file), specifier);
    const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), `${base}.ts`, join(base, 'index.ts')];
    const target = candidates.find((candidate) => known.has(candidate));
    if (target) found.add(target);
  }
  return [...found];
}

const edges = new Map(files.map((file) => [file, importsOf(file)]));

// Tarjan's strongly connected components, iterative (deep trees would overflow recursion).
let counter = 0;
const index = new Map();
const low = new Map();
const onStack = new Set();
const stack = [];
const circles = [];
for (const start of files) {
  if (index.has(start)) continue;
  const work = [[start, 0]];
  while (work.length > 0) {
    const frame = work[work.length - 1];
    const [node, next] = frame;
    if (next === 0) {
      index.set(node, counter);
      low.set(node, counter++);
      stack.push(node);
      onStack.add(node);
    }
    const targets = edges.get(node);
    if (next < targets.length) {
      frame[1]++;
      const target = targets[next];
      if (!index.has(target)) work.push([target, 0]);
      else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)));
      continue;
    }
    work.pop();
    if (work.length > 0) {
      const parent = work[work.length - 1][0];
      low.set(parent, Math.min(low.get(parent), low.get(node)));
    }
    if (low.get(node) === index.get(node)) {
      const members = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        members.push(member);
      } while (member !== node);
      if (members.length > 1) circles.push(members);
    }
  }
}

circles.sort((a, b) => b.length - a.length);
console.log(`${files.length} files under ${relative(process.cwd(), root) || '.'}; ${circles.length} import circle(s); largest ${circles[0]?.length ?? 0} files`);
for (const circle of circles) {
  console.log(`\n${circle.length} files:`);
  for (const file of circle.sort()) console.log(`  ${relative(root, file)}`);
}

/** `file` (relative to the root) lies in folder `dir`. */
const inside = (file, dir) => file === dir || file.startsWith(`${dir}/`);
const crossings = layers.flatMap(({ dir, allowed }) =>
  files
    .map((file) => relative(root, file))
    .filter((file) => inside(file, dir))
    .flatMap((file) =>
      edges
        .get(join(root, file))
        .map((target) => relative(root, target))
        .filter((target) => !allowed.some((folder) => inside(target, folder)))
        .map((target) => `${file} → ${target} (${dir} may import only ${allowed.join(', ')})`),
    ),
);
if (crossings.length > 0) console.log(`\n${crossings.length} import(s) across a layer:\n${crossings.map((line) => `  ${line}`).join('\n')}`);

if ((max !== null && (circles[0]?.length ?? 0) > max) || crossings.length > 0) process.exit(1);
