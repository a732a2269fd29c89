// Headless CLI: runs a script of `kubectl …` and `sim …` lines against a simulated cluster.
//   npm run --silent sim -- [--seed N] [--nodes N] [--kubeadm] [FILE]
// Reads FILE (or stdin), one command a line; `#` comments and blank lines are ignored, except a
// header line `# addons: kube-proxy` among the first comments, which runs kube-proxy on every node,
// and `# nodes: cpu=1 memory=3840Mi`, which sizes every worker;
// `kubectl apply -f - <<EOF … EOF` carries an inline manifest. Prints only the commands' output
// (errors on stderr), carries on after a failed command, exits 1 if any failed.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createCluster, loadAddonsFromHeader } from '../src/sim/index.ts';
import { prepareLine, runScript, scriptHeader } from '../src/sim/kubectl/index.ts';

const addonsFromHeader = await loadAddonsFromHeader();

function usage(msg: string): never {
  process.stderr.write(`error: ${msg}\nusage: npm run --silent sim -- [--seed N] [--nodes N] [--kubeadm] [FILE]\n`);
  process.exit(2);
}

const argv = process.argv.slice(2);
let seed = 1;
let nodes = 3;
let kubeadm = false;
let file: string | undefined;
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const num = (name: string) => {
    const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
    if (v === undefined || !/^\d+$/.test(v)) usage(`${name} needs a non-negative integer`);
    return Number(v);
  };
  if (a === '--seed' || a.startsWith('--seed=')) seed = num('--seed');
  else if (a === '--nodes' || a.startsWith('--nodes=')) nodes = num('--nodes');
  else if (a === '--kubeadm') kubeadm = true;
  else if (a === '-h' || a === '--help') {
    process.stdout.write('usage: npm run --silent sim -- [--seed N] [--nodes N] [--kubeadm] [FILE]\n');
    process.exit(0);
  } else if (a.startsWith('-') && a !== '-') usage(`unknown flag: ${a}`);
  else if (file === undefined) file = a;
  else usage('only one script file may be given');
}

let text: string;
try {
  text = file && file !== '-' ? readFileSync(file, 'utf8') : readFileSync(0, 'utf8');
} catch (e) {
  usage(`cannot read ${file ?? 'stdin'}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
}
const base = file && file !== '-' ? dirname(resolve(file)) : process.cwd();
// -f FILE through the host. A directory is read as kubectl's builder reads one without -R: its
// .json, .yaml and .yml files in name order, as the documents of one manifest; anything else that
// cannot be read (a socket, no permission) is a path that does not exist.
const MANIFEST_FILE = /\.(json|ya?ml)$/;
const readFile = (p: string): string | undefined => {
  for (const cand of [resolve(base, p), resolve(process.cwd(), p)]) {
    try {
      const st = statSync(cand, { throwIfNoEntry: false });
      if (st?.isFile()) return readFileSync(cand, 'utf8');
      if (st?.isDirectory()) {
        return readdirSync(cand)
          .filter((f) => MANIFEST_FILE.test(f) && statSync(resolve(cand, f)).isFile())
          .sort()
          .map((f) => readFileSync(resolve(cand, f), 'utf8'))
          .join('\n---\n');
      }
    } catch {
      /* unreadable: try the next place, then report the path as missing */
    }
  }
  return undefined;
};

// A header line `# addons: kube-proxy` (or kube-proxy=nftables) turns kube-proxy on for this script;
// `# nodes: cpu=1 memory=3840Mi` gives every worker that size (the oracle's scenarios need it).
let addons;
let header;
try {
  header = scriptHeader(text);
  addons = addonsFromHeader(header);
} catch (e) {
  usage((e as Error).message);
}
const size = header.nodes;
const nodeCapacity = size ? Array.from({ length: nodes }, () => ({ ...size })) : undefined;
const cluster = createCluster({
  seed,
  nodes,
  kubeadm,
  ...(addons.length ? { addons } : {}),
  ...(nodeCapacity ? { nodeCapacity } : {}),
});
// kubectl explain's schema is a chunk of its own, loaded before a script that uses it.
await prepareLine(text);
const { exitCode } = runScript(cluster, text, { readFile }, (step) => {
  process.stdout.write(step.stdout);
  process.stderr.write(step.stderr);
});
process.exitCode = exitCode;
