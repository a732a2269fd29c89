import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  base32StdEncoding,
  portProtoHash,
  serviceExternalChainName,
  serviceFirewallChainName,
  servicePortEndpointChainName,
  servicePortPolicyClusterChain,
  servicePortPolicyLocalChainName,
  sha256,
} from './chain-names.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('sha256', () => {
  it('matches Node crypto on lengths around the 55/56/64-byte padding edges', () => {
    for (const n of [0, 1, 3, 54, 55, 56, 57, 63, 64, 65, 119, 120, 200]) {
      const s = 'k'.repeat(n);
      expect(hex(sha256(bytes(s))), `length ${n}`).toBe(createHash('sha256').update(s).digest('hex'));
    }
  });
  it('hashes multi-byte UTF-8 as bytes', () => {
    expect(hex(sha256(bytes('ns/svc:pört')))).toBe(createHash('sha256').update('ns/svc:pört').digest('hex'));
  });
});

describe('base32StdEncoding', () => {
  // RFC 4648 §10 test vectors.
  it.each([
    ['', ''],
    ['f', 'MY======'],
    ['fo', 'MZXQ===='],
    ['foo', 'MZXW6==='],
    ['foob', 'MZXW6YQ='],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI======'],
  ])('%j → %s', (input, want) => {
    expect(base32StdEncoding(bytes(input))).toBe(want);
  });
});

// The names in the expected dumps of TestOverallIPTablesRules and TestSortIPTablesRules
// (kubernetes/kubernetes pkg/proxy/iptables/proxier_test.go).
describe('chain names as the iptables proxier hashes them', () => {
  it.each([
    ['ns1/svc1:p80', 'KUBE-SVC-XPGD46QRK7WJZT7O'],
    ['ns2/svc2:p80', 'KUBE-SVC-GNZBNJ2PO5MGZ6GT'],
    ['ns3/svc3:p80', 'KUBE-SVC-X27LE4BHSL4DOUIK'],
    ['ns4/svc4:p80', 'KUBE-SVC-4SW47YFZTEDKD3PK'],
    ['ns5/svc5:p80', 'KUBE-SVC-NUKIZ6OKUXPJNT4C'],
  ])('%s → %s', (name, chain) => {
    expect(servicePortPolicyClusterChain(name, 'tcp')).toBe(chain);
  });
  it('shares one hash among SVC, SVL, EXT and FW, and differs by protocol', () => {
    expect(portProtoHash('ns2/svc2:p80', 'tcp')).toBe('GNZBNJ2PO5MGZ6GT');
    expect(servicePortPolicyLocalChainName('ns2/svc2:p80', 'tcp')).toBe('KUBE-SVL-GNZBNJ2PO5MGZ6GT');
    expect(serviceExternalChainName('ns2/svc2:p80', 'tcp')).toBe('KUBE-EXT-GNZBNJ2PO5MGZ6GT');
    expect(serviceFirewallChainName('ns5/svc5:p80', 'tcp')).toBe('KUBE-FW-NUKIZ6OKUXPJNT4C');
    expect(portProtoHash('ns2/svc2:p80', 'udp')).not.toBe('GNZBNJ2PO5MGZ6GT');
  });
  it.each([
    ['ns1/svc1:p80', '10.180.0.1:80', 'KUBE-SEP-SXIVWICOYRO3J4NJ'],
    ['ns2/svc2:p80', '10.180.0.2:80', 'KUBE-SEP-RS4RBKLTHTF2IUXJ'],
    ['ns3/svc3:p80', '10.180.0.3:80', 'KUBE-SEP-OYPFS5VJICHGATKP'],
    ['ns4/svc4:p80', '10.180.0.4:80', 'KUBE-SEP-UKSFD7AGPMPPLUHC'],
    ['ns4/svc4:p80', '10.180.0.5:80', 'KUBE-SEP-C6EBXVWJJZMIWKLZ'],
    ['ns5/svc5:p80', '10.180.0.3:80', 'KUBE-SEP-I77PXRDZVX7PMWMN'],
  ])('%s endpoint %s → %s', (name, ep, chain) => {
    expect(servicePortEndpointChainName(name, 'tcp', ep)).toBe(chain);
  });
});
