// Runs before `npm test`, `npm start`, `npm run build` and `npm run dev` (npm's pre-scripts): on a
// Node older than Astro 7 needs, stop at once with one line that says what to do, instead of a stack
// trace from deep inside Astro. Written for any Node, old ones included.
var parts = process.versions.node.split('.').map(Number);
var ok = parts[0] > 22 || (parts[0] === 22 && parts[1] >= 12);
if (!ok) {
  console.error(
    'Desired State needs Node 22.12 or newer (Astro 7); this is Node ' +
      process.versions.node +
      '. ' +
      'Install a current Node (https://nodejs.org), or run `. .ci/ensure-node.sh` here to put Node 24 ' +
      'from the npm registry first on PATH, then run the command again.',
  );
  process.exit(1);
}
