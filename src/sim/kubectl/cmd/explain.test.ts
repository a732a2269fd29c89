// kubectl explain: its chunk loads before a line that names it (the CLI's scripts, a figure's
// terminal: figures/terminal.test.ts), its output is the real kubectl's (outputs below recorded from kubectl v1.37.2 by the
// oracle; oracle/scenarios/explain.sim compares many more), and a chunk that fails to load is said
// in one line, never breaking the terminal.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createCluster } from '../../cluster.ts';
import { loadExplain, prepareLine, runKubectl } from '../kubectl.ts';

const c = createCluster({ seed: 1, nodes: 3 });
const kubectl = (line: string) => runKubectl(c, line);

describe('kubectl explain', () => {
  beforeAll(() => loadExplain());

  it('prints a field as the real kubectl does: GROUP/KIND/VERSION, FIELD with its type and enum, the description wrapped at 80 columns', () => {
    expect(kubectl('explain deploy.spec.strategy.type')).toEqual({
      exitCode: 0,
      stderr: '',
      stdout: [
        'GROUP:      apps',
        'KIND:       Deployment',
        'VERSION:    v1',
        '',
        'FIELD: type <string>',
        'ENUM:',
        '    Recreate',
        '    RollingUpdate',
        '',
        'DESCRIPTION:',
        '    Type of deployment. Can be "Recreate" or "RollingUpdate". Default is',
        '    RollingUpdate.',
        '    ',
        '    Possible enum values:',
        '     - `"Recreate"` Kill all existing pods before creating new ones.',
        '     - `"RollingUpdate"` Replace the old ReplicaSets by new one using rolling',
        '    update i.e gradually scale down the old ReplicaSets and scale up the new',
        '    one.',
        '    ',
        '',
        '',
      ].join('\n'),
    });
  });

  it('--recursive lists the fields of fields, indented, without descriptions', () => {
    expect(kubectl('explain pods.spec.containers.resources --recursive').stdout).toBe(
      [
        'KIND:       Pod',
        'VERSION:    v1',
        '',
        'FIELD: resources <ResourceRequirements>',
        '',
        '',
        'DESCRIPTION:',
        '    Compute Resources required by this container. Cannot be updated. More info:',
        '    https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
        '    ResourceRequirements describes the compute resource requirements.',
        '    ',
        'FIELDS:',
        '  claims\t<[]ResourceClaim>',
        '    name\t<string> -required-',
        '    request\t<string>',
        '  limits\t<map[string]Quantity>',
        '  requests\t<map[string]Quantity>',
        '',
        '',
      ].join('\n'),
    );
  });

  it('names a resource by plural, singular, short name or kind; short names as typed, the rest in any case', () => {
    const pods = kubectl('explain pods').stdout;
    expect(pods.startsWith('KIND:       Pod\nVERSION:    v1\n\nDESCRIPTION:\n')).toBe(true);
    for (const name of ['pod', 'po', 'Pod', 'PODS']) expect(kubectl(`explain ${name}`).stdout).toBe(pods);
    expect(kubectl('explain PO')).toEqual({
      stdout: '',
      stderr: 'the server doesn\'t have a resource type "PO"\n',
      exitCode: 1,
    });
    // ev is Events' short name in two groups: the core one wins, with the shortcut expander's warning.
    expect(kubectl('explain ev').stderr).toBe(
      'Warning: short name "ev" could also match lower priority resource events.events.k8s.io\n',
    );
    expect(kubectl('explain ev --api-version=events.k8s.io/v1').stdout).toMatch(
      /^GROUP: {6}events\.k8s\.io\nKIND: {7}Event\n/,
    );
  });

  it('reads TYPE.FIELD… as kubectl does: `resource.group` as a prefix, else every later name a field', () => {
    expect(kubectl('explain deployments.apps.spec.replicas').stdout).toMatch(
      /^GROUP: {6}apps\nKIND: {7}Deployment\nVERSION: {4}v1\n\nFIELD: replicas <integer>\n/,
    );
    // `events` prefixes events.events.k8s.io, so the rest is read as the fields events, k8s, io.
    expect(kubectl('explain events.events.k8s.io')).toEqual({
      stdout: 'KIND:       Event\nVERSION:    v1\n\n',
      stderr: 'error: field "io" does not exist\n',
      exitCode: 1,
    });
    expect(kubectl('explain pods.bogus.spec')).toEqual({
      stdout: 'KIND:       Pod\nVERSION:    v1\n\n',
      stderr: 'error: field "spec" does not exist\n',
      exitCode: 1,
    });
    expect(kubectl('explain pods.spec.containers[0]').stderr).toBe(
      'error: invalid jsonpath syntax, first node must be field node\n',
    );
    expect(kubectl('explain pods.spec.').stdout).toBe(kubectl('explain pods.spec').stdout);
  });

  it('refuses as kubectl refuses: no resource, two, an unknown one, bad flags and formats', () => {
    expect(kubectl('explain').stderr).toBe(
      'error: You must specify the type of resource to explain. Use "kubectl api-resources" for a complete list of supported resources.\n',
    );
    expect(kubectl('explain pods nodes').stderr).toBe('error: We accept only this format: explain RESOURCE\n');
    expect(kubectl('explain foo').stderr).toBe('the server doesn\'t have a resource type "foo"\n');
    expect(kubectl('explain pods --max-depth=1').stderr).toBe('error: --max-depth requires --recursive\n');
    // pflag reads ints as strconv.ParseInt(s, 0, 64): with Go's prefixes.
    expect(kubectl('explain pods -R --max-depth=0x2').stdout).toBe(kubectl('explain pods -R --max-depth=2').stdout);
    expect(kubectl('explain pods -R --max-depth=1.5').stderr).toBe(
      'error: invalid argument "1.5" for "--max-depth" flag: strconv.ParseInt: parsing "1.5": invalid syntax\nSee \'kubectl explain --help\' for usage.\n',
    );
    expect(kubectl('explain pods --api-version=apps/v1').stderr).toBe(
      'error: GVR (apps/v1, Resource=pods) not found in OpenAPI schema\n',
    );
    expect(kubectl('explain pods --api-version=foo/v1').stderr).toBe(
      'error: couldn\'t find resource for "foo/v1, Resource=pods"\n',
    );
    expect(kubectl('explain pods --api-version=a/b/c').stderr).toBe('error: unexpected GroupVersion string: a/b/c\n');
    expect(kubectl('explain pods -o json').stderr).toBe('error: unrecognized format: json\n');
    expect(kubectl('explain pods -o plaintext-openapiv2').stderr).toMatch(
      /^error: kubectl explain --output=plaintext-openapiv2 is a real format that this simulator does not print: .+\n$/,
    );
    expect(kubectl('explain --help').stdout).toMatch(
      /^Describe fields and structure of various resources\.\n[\s\S]+\nUsage:\n {2}kubectl explain TYPE \[--recursive=FALSE\|TRUE\] /,
    );
  });
});

describe("explain's chunk", () => {
  it('is asked for only by a line that names explain', () => {
    expect(prepareLine('kubectl get pods')).toBeUndefined();
    expect(prepareLine(42)).toBeUndefined();
  });

  it('when it fails to load, explain says so in one line and the next line runs', async () => {
    vi.resetModules();
    vi.doMock('../explain/explain.ts', () => {
      throw new Error('network down');
    });
    const fresh = await import('./explain.ts');
    const { runKubectl: run } = await import('./cmd.ts');
    await fresh.loadExplain();
    const cl = createCluster({ seed: 1, nodes: 3 });
    expect(run(cl, 'explain pods')).toEqual({
      stdout: '',
      stderr: expect.stringMatching(
        /^error: kubectl explain's API documentation failed to load \(.+\); reload the page to try again\n$/,
      ),
      exitCode: 1,
    });
    expect(run(cl, 'get ns default -o name')).toEqual({ stdout: 'namespace/default\n', stderr: '', exitCode: 0 });
    vi.doUnmock('../explain/explain.ts');
  });
});
