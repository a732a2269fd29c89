// kubectl on ServiceAccounts and ConfigMaps: get (the ConfigMap's DATA column), describe as
// describe.go writes them, and -o yaml folding a long plain value at column 80 as go-yaml does
// (the lines checked are the real kubectl v1.37.2's, from oracle/traces/service-accounts.json).
import { describe, expect, it } from 'vitest';
import { createCluster } from '../cluster.ts';
import { runKubectl } from './kubectl.ts';
import { foldPlainScalars } from './printers.ts';

const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

describe('kubectl and ServiceAccounts, ConfigMaps', () => {
  const c = createCluster({ seed: 1 });

  it('gets them by their short names, the ConfigMap with its count of keys', () => {
    expect(runKubectl(c, 'get sa').stdout).toBe('NAME      AGE\ndefault   0s\n');
    expect(runKubectl(c, 'get cm -n kube-public').stdout).toBe(
      'NAME               DATA   AGE\nkube-root-ca.crt   1      0s\n',
    );
    expect(runKubectl(c, 'get sa,cm -n kube-system -o name').stdout).toBe(
      'serviceaccount/default\nconfigmap/kube-root-ca.crt\n',
    );
  });

  it('describes a ServiceAccount: labels, annotations, image pull secrets and events', () => {
    expect(runKubectl(c, 'describe sa default').stdout).toBe(
      [
        'Name:                default',
        'Namespace:           default',
        'Labels:              <none>',
        'Annotations:         <none>',
        'Image pull secrets:  <none>',
        'Events:              <none>',
        '',
      ].join('\n'),
    );
  });

  it("describes a ConfigMap: a long annotation under its key, cut at 140, then each key's value", () => {
    const out = runKubectl(c, 'describe cm kube-root-ca.crt').stdout.split('\n');
    expect(out.slice(0, 6)).toEqual([
      'Name:         kube-root-ca.crt',
      'Namespace:    default',
      'Labels:       <none>',
      'Annotations:  kubernetes.io/description:',
      `                ${DESCRIPTION.slice(0, 138)}...`,
      '',
    ]);
    expect(out.slice(6, 10)).toEqual(['Data', '====', 'ca.crt:', '----']);
    expect(out.slice(-8)).toEqual(['', '', '', 'BinaryData', '====', '', 'Events:  <none>', '']);
  });

  it('prints a long annotation folded as go-yaml folds it', () => {
    expect(runKubectl(c, 'get cm kube-root-ca.crt -o yaml').stdout).toContain(
      [
        '    kubernetes.io/description: Contains a CA bundle that can be used to verify the',
        '      kube-apiserver when using internal endpoints such as the internal service IP',
        '      or kubernetes.default.svc. No other usage is guaranteed across distributions',
        '      of Kubernetes clusters.',
      ].join('\n'),
    );
  });
});

describe('foldPlainScalars', () => {
  it('breaks at the first single space past column 80, two columns in from the key', () => {
    const long = `msg: ${'word '.repeat(20).trim()}`;
    expect(foldPlainScalars(long)).toBe(`msg: ${'word '.repeat(15)}word\n  ${'word '.repeat(3)}word`);
    expect(foldPlainScalars(`- name: ${'x'.repeat(100)}`)).toBe(`- name: ${'x'.repeat(100)}`);
    expect(foldPlainScalars(`  - name: ${'ab '.repeat(30).trim()}`).split('\n')[1]).toMatch(/^ {6}ab/);
  });

  it('leaves short lines, quoted and block values alone', () => {
    for (const line of ['a: short', `a: "${'q '.repeat(50)}"`, `a: '${'q '.repeat(50)}'`, 'a: |', `${'k'.repeat(90)}`])
      expect(foldPlainScalars(line)).toBe(line);
  });
});
