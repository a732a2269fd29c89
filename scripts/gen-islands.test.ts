import { afterEach, describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleFiles } from './gen-islands.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const HOST = 'src/components/InlineWidget.astro';
const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

/** A copy of the island host and the given widget folders of the repository, in a temporary root. */
function copyOf(folders: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'islands-'));
  roots.push(root);
  mkdirSync(join(root, 'src/components'), { recursive: true });
  cpSync(join(ROOT, HOST), join(root, HOST));
  for (const f of folders) cpSync(join(ROOT, 'src/widgets', f), join(root, 'src/widgets', f), { recursive: true });
  return root;
}

describe('gen-islands', () => {
  it('the island host and the chapter figures’ embed pages are as the registry makes them (node scripts/gen-islands.mjs)', () => {
    expect(staleFiles()).toEqual([]);
  });

  it("finds each widget's island in its own folder, src/widgets/<id>/<Name>Widget.svelte", () => {
    const root = copyOf(['write-watch', 'new-replicaset']);
    const rows = [
      { id: 'write-watch', kind: 'widget' as const },
      { id: 'new-replicaset', kind: 'widget' as const },
    ];
    // The host on disk names all 26 widgets: with two rows it is stale, and nothing throws.
    expect(staleFiles(root, rows)).toEqual([HOST]);
  });

  it('fails with the id and the path it looked for when a row has no folder or no component', () => {
    const root = copyOf(['write-watch']);
    expect(() => staleFiles(root, [{ id: 'conflict', kind: 'widget' }])).toThrow(
      'conflict: the registry has a row for it but there is no folder src/widgets/conflict/ (its island is src/widgets/conflict/<Name>Widget.svelte)',
    );
    mkdirSync(join(root, 'src/widgets/conflict'));
    expect(() => staleFiles(root, [{ id: 'conflict', kind: 'widget' }])).toThrow(
      'conflict: src/widgets/conflict/ has no src/widgets/conflict/<Name>Widget.svelte named after its id (conflictwidget.svelte, any case)',
    );
  });
});
