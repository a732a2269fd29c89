import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDNS1123Subdomain } from './validation.ts';
import { runs } from '../../test/fc.ts';
import { RESOURCES } from '../api/resources.ts';
import { testWorld } from '../testing/world.ts';

describe('names', () => {
  it('isDNS1123Subdomain accepts exactly what the regular expression accepts', () => {
    const re = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
    for (const s of [
      '',
      'a',
      'a-',
      '-a',
      'a.b',
      'a..b',
      '.a',
      'a.',
      'a-.b',
      'a.-b',
      'a--b',
      'web-1.18b2c',
      'Web',
      'a_b',
      '0',
      '0.0',
      'a-b.c-d',
    ]) {
      expect(isDNS1123Subdomain(s)).toBe(re.test(s));
    }
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9.\-A_]{0,12}$/), (s) => {
        expect(isDNS1123Subdomain(s)).toBe(re.test(s));
      }),
      { numRuns: runs(20) },
    );
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(isDNS1123Subdomain(s)).toBe(re.test(s));
      }),
    );
  });
});

// ------------------------------------------------------------------------------------ table tests

type Unstructured = any;

const tmpl = (): Unstructured => ({
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
});
const BASE: Record<string, () => Unstructured> = {
  deployments: () => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: tmpl() },
  }),
  replicasets: () => ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web' },
    spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: tmpl() },
  }),
  pods: () => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: tmpl().spec }),
  services: () => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web' },
    spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
  }),
  nodes: () => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'n1' },
    spec: {},
    status: { capacity: { cpu: '2' } },
  }),
  namespaces: () => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } }),
};
const D = 'Deployment.apps "web" is invalid: ';
const RS = 'ReplicaSet.apps "web" is invalid: ';
const P = 'Pod "web" is invalid: ';
const S = 'Service "web" is invalid: ';
const DNS_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const QNAME =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LVALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const PERCENT =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/** [what, resource, how the valid body is spoilt, the status code, the API server's message]. */
const ROWS: [string, string, (o: Unstructured) => void, number, string][] = [
  // decoding: 400 BadRequest, as the JSON serializer answers
  [
    'replicas as a string',
    'deployments',
    (o) => {
      o.spec.replicas = '2';
    },
    400,
    'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
  ],
  [
    'replicas fractional',
    'deployments',
    (o) => {
      o.spec.replicas = 1.5;
    },
    400,
    'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32',
  ],
  [
    'replicas above int32',
    'replicasets',
    (o) => {
      o.spec.replicas = 2147483648;
    },
    400,
    'ReplicaSet in version "v1" cannot be handled as a ReplicaSet: json: cannot unmarshal number 2147483648 into Go struct field ReplicaSetSpec.spec.replicas of type int32',
  ],
  [
    'metadata as a string (property counterexample)',
    'deployments',
    (o) => {
      o.metadata = 'NaN';
    },
    400,
    'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field Deployment.metadata of type v1.ObjectMeta',
  ],
  [
    'ownerReferences as a bool (property counterexample: refs is not iterable)',
    'deployments',
    (o) => {
      o.metadata.ownerReferences = false;
    },
    400,
    'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.ownerReferences of type []v1.OwnerReference',
  ],
  [
    'node conditions as a number (property counterexample: 0 is not iterable)',
    'nodes',
    (o) => {
      o.status.conditions = 0;
    },
    400,
    'Node in version "v1" cannot be handled as a Node: json: cannot unmarshal number into Go struct field NodeStatus.status.conditions of type []v1.NodeCondition',
  ],
  [
    'a label value as a number',
    'pods',
    (o) => {
      o.metadata.labels = { app: 1 };
    },
    400,
    'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
  ],
  [
    'a container as a string',
    'pods',
    (o) => {
      o.spec.containers = ['web'];
    },
    400,
    'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type v1.Container',
  ],
  [
    'containerPort as a string',
    'deployments',
    (o) => {
      o.spec.template.spec.containers[0].ports = [{ containerPort: '80' }];
    },
    400,
    'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32',
  ],
  [
    'a quantity that is none',
    'pods',
    (o) => {
      o.spec.containers[0].resources = { limits: { cpu: 'lots' } };
    },
    400,
    'Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'',
  ],
  // Quantity.UnmarshalJSON → ParseQuantity's other errors (suffix.go: the exponent is a ParseInt of 64 bits; quantity.go: Dec.SetString)
  [
    'a quantity exponent past int64',
    'pods',
    (o) => {
      o.spec.containers[0].resources = { requests: { cpu: '1e99999999999999999999' } };
    },
    400,
    'Pod in version "v1" cannot be handled as a Pod: unable to parse quantity\'s suffix',
  ],
  [
    'a quantity with no digit below nano',
    'pods',
    (o) => {
      o.spec.containers[0].resources = { requests: { cpu: '+e-20' } };
    },
    400,
    'Pod in version "v1" cannot be handled as a Pod: unable to parse numeric part of quantity',
  ],
  [
    'maxSurge as a bool',
    'deployments',
    (o) => {
      o.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: true } };
    },
    400,
    'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal bool into Go value of type int32',
  ],
  [
    'targetPort as an object',
    'services',
    (o) => {
      o.spec.ports[0].targetPort = {};
    },
    400,
    'Service in version "v1" cannot be handled as a Service: json: cannot unmarshal object into Go value of type int32',
  ],
  [
    'taints as an object',
    'nodes',
    (o) => {
      o.spec.taints = { key: 'k' };
    },
    400,
    'Node in version "v1" cannot be handled as a Node: json: cannot unmarshal object into Go struct field NodeSpec.spec.taints of type []v1.Taint',
  ],
  // ValidateDeploymentSpec / ValidateReplicaSetSpec
  [
    'negative replicas',
    'deployments',
    (o) => {
      o.spec.replicas = -1;
    },
    422,
    D + 'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
  ],
  [
    'negative minReadySeconds',
    'replicasets',
    (o) => {
      o.spec.minReadySeconds = -5;
    },
    422,
    RS + 'spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0',
  ],
  [
    'negative revisionHistoryLimit',
    'deployments',
    (o) => {
      o.spec.revisionHistoryLimit = -1;
    },
    422,
    D + 'spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
  ],
  [
    'progressDeadlineSeconds not above minReadySeconds',
    'deployments',
    (o) => {
      o.spec.minReadySeconds = 10;
      o.spec.progressDeadlineSeconds = 10;
    },
    422,
    D + 'spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds',
  ],
  [
    'no selector',
    'deployments',
    (o) => {
      delete o.spec.selector;
    },
    422,
    D +
      '[spec.selector: Required value, spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`]',
  ],
  [
    'empty selector',
    'replicasets',
    (o) => {
      o.spec.selector = {};
    },
    422,
    RS + 'spec.selector: Invalid value: {}: empty selector is invalid for deployment',
  ],
  [
    'selector not matching the template',
    'deployments',
    (o) => {
      o.spec.selector.matchLabels = { app: 'other' };
    },
    422,
    D + 'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
  ],
  [
    'a selector operator that is none',
    'deployments',
    (o) => {
      o.spec.selector = { matchExpressions: [{ key: 'app', operator: 'Is', values: ['web'] }] };
    },
    422,
    D +
      '[spec.selector.matchExpressions[0].operator: Invalid value: "Is": not a valid selector operator, spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Is","values":["web"]}]}: invalid label selector]',
  ],
  [
    'In without values',
    'replicasets',
    (o) => {
      o.spec.selector = { matchExpressions: [{ key: 'app', operator: 'In' }] };
    },
    422,
    RS +
      '[spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is \'In\' or \'NotIn\', spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"In"}]}: invalid label selector]',
  ],
  // ValidateObjectMeta: ValidateOwnerReferences (path indexed per reference), ValidateFinalizers
  [
    'an owner reference without uid',
    'pods',
    (o) => {
      o.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs' }];
    },
    422,
    P + 'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
  ],
  [
    'an owner reference with nothing but a uid',
    'deployments',
    (o) => {
      o.metadata.ownerReferences = [{ uid: 'u' }];
    },
    422,
    D +
      '[metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty, metadata.ownerReferences.kind: Invalid value: "": must not be empty, metadata.ownerReferences.name: Invalid value: "": must not be empty]',
  ],
  [
    'an owner reference apiVersion with two slashes',
    'pods',
    (o) => {
      o.metadata.ownerReferences = [{ apiVersion: 'a/b/c', kind: 'K', name: 'n', uid: 'u' }];
    },
    422,
    P + 'metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty',
  ],
  [
    'two controller references',
    'pods',
    (o) => {
      o.metadata.ownerReferences = [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: '1', controller: true },
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'b', uid: '2', controller: true, blockOwnerDeletion: true },
      ];
    },
    422,
    P +
      'metadata.ownerReferences: Invalid value: [{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"a","uid":"1","controller":true},{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"b","uid":"2","controller":true,"blockOwnerDeletion":true}]: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/b',
  ],
  [
    'a finalizer that is no qualified name',
    'deployments',
    (o) => {
      o.metadata.finalizers = ['example.com/ok', 'not ok'];
    },
    422,
    D + `metadata.finalizers: Invalid value: "not ok": ${QNAME}`,
  ],
  [
    'orphan and foregroundDeletion together',
    'pods',
    (o) => {
      o.metadata.finalizers = ['orphan', 'foregroundDeletion'];
    },
    422,
    P +
      'metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set',
  ],
  [
    'a bad label key',
    'deployments',
    (o) => {
      o.metadata.labels = { 'a b': 'x' };
    },
    422,
    D + `metadata.labels: Invalid value: "a b": ${QNAME}`,
  ],
  [
    'a bad label value',
    'pods',
    (o) => {
      o.metadata.labels = { app: '-web' };
    },
    422,
    P + `metadata.labels: Invalid value: "-web": ${LVALUE}`,
  ],
  [
    'restartPolicy Never in a Deployment',
    'deployments',
    (o) => {
      o.spec.template.spec.restartPolicy = 'Never';
    },
    422,
    D + 'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
  ],
  [
    'activeDeadlineSeconds in a ReplicaSet',
    'replicasets',
    (o) => {
      o.spec.template.spec.activeDeadlineSeconds = 30;
    },
    422,
    RS +
      'spec.template.spec.activeDeadlineSeconds: Invalid value: 30: activeDeadlineSeconds in ReplicaSet is not Supported',
  ],
  [
    'strategy type unknown',
    'deployments',
    (o) => {
      o.spec.strategy = { type: 'BlueGreen' };
    },
    422,
    D +
      'spec.strategy: Unsupported value: {"Type":"BlueGreen","RollingUpdate":null}: supported values: "Recreate", "RollingUpdate"',
  ],
  [
    'Recreate with rollingUpdate',
    'deployments',
    (o) => {
      o.spec.strategy = { type: 'Recreate', rollingUpdate: { maxSurge: 1 } };
    },
    422,
    D + "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
  ],
  [
    'maxSurge not a percent',
    'deployments',
    (o) => {
      o.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 'abc%', maxUnavailable: 1 } };
    },
    422,
    D + `spec.strategy.rollingUpdate.maxSurge: Invalid value: "abc%": ${PERCENT}`,
  ],
  [
    'negative maxUnavailable',
    'deployments',
    (o) => {
      o.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: -1 } };
    },
    422,
    D + 'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0',
  ],
  [
    'maxUnavailable above 100%',
    'deployments',
    (o) => {
      o.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '150%' } };
    },
    422,
    D + 'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%',
  ],
  [
    'maxSurge and maxUnavailable both 0%',
    'deployments',
    (o) => {
      o.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '0%', maxUnavailable: '0%' } };
    },
    422,
    D + 'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0',
  ],
  // ValidatePodSpec
  [
    'no containers',
    'pods',
    (o) => {
      o.spec.containers = [];
    },
    422,
    P + 'spec.containers: Required value',
  ],
  [
    'a container name that is no DNS label',
    'deployments',
    (o) => {
      o.spec.template.spec.containers[0].name = 'Web_1';
    },
    422,
    D + `spec.template.spec.containers[0].name: Invalid value: "Web_1": ${DNS_LABEL}`,
  ],
  [
    'no container name',
    'pods',
    (o) => {
      delete o.spec.containers[0].name;
    },
    422,
    P + 'spec.containers[0].name: Required value',
  ],
  [
    'two containers of one name',
    'pods',
    (o) => {
      o.spec.containers.push({ name: 'web', image: 'busybox' });
    },
    422,
    P + 'spec.containers[1].name: Duplicate value: "web"',
  ],
  [
    'an empty image',
    'deployments',
    (o) => {
      o.spec.template.spec.containers[0].image = '';
    },
    422,
    D + 'spec.template.spec.containers[0].image: Required value',
  ],
  [
    'an image with spaces around it',
    'pods',
    (o) => {
      o.spec.containers[0].image = ' nginx';
    },
    422,
    P + 'spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace',
  ],
  [
    'containerPort out of range',
    'pods',
    (o) => {
      o.spec.containers[0].ports = [{ containerPort: 70000 }];
    },
    422,
    P + 'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
  ],
  [
    'containerPort 0',
    'pods',
    (o) => {
      o.spec.containers[0].ports = [{ containerPort: 0 }];
    },
    422,
    P + 'spec.containers[0].ports[0].containerPort: Required value',
  ],
  [
    'a protocol that is none',
    'pods',
    (o) => {
      o.spec.containers[0].ports = [{ containerPort: 80, protocol: 'HTTP' }];
    },
    422,
    P + 'spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
  ],
  [
    'requests above limits',
    'deployments',
    (o) => {
      o.spec.template.spec.containers[0].resources = { requests: { cpu: '500m' }, limits: { cpu: '200m' } };
    },
    422,
    D +
      'spec.template.spec.containers[0].resources.requests: Invalid value: "500m": must be less than or equal to cpu limit of 200m',
  ],
  [
    'a negative memory request',
    'pods',
    (o) => {
      o.spec.containers[0].resources = { requests: { memory: '-1Mi' } };
    },
    422,
    P + 'spec.containers[0].resources.requests[memory]: Invalid value: "-1Mi": must be greater than or equal to 0',
  ],
  // (SetDefaults_Pod copies the limit into requests before validation: both are refused.)
  [
    'a resource name that is no standard one',
    'pods',
    (o) => {
      o.spec.containers[0].resources = { limits: { gpu: '1' } };
    },
    422,
    P +
      '[spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource for containers, spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers]',
  ],
  [
    'restartPolicy unknown',
    'pods',
    (o) => {
      o.spec.restartPolicy = 'Sometimes';
    },
    422,
    P + 'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
  ],
  [
    'imagePullPolicy unknown',
    'pods',
    (o) => {
      o.spec.containers[0].imagePullPolicy = 'Maybe';
    },
    422,
    P +
      'spec.containers[0].imagePullPolicy: Unsupported value: "Maybe": supported values: "Always", "IfNotPresent", "Never"',
  ],
  [
    'activeDeadlineSeconds 0',
    'pods',
    (o) => {
      o.spec.activeDeadlineSeconds = 0;
    },
    422,
    P + 'spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive',
  ],
  [
    'a toleration effect unknown',
    'pods',
    (o) => {
      o.spec.tolerations = [{ key: 'k', operator: 'Exists', effect: 'NoRun' }];
    },
    422,
    P +
      'spec.tolerations[0].effect: Unsupported value: "NoRun": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
  ],
  [
    'tolerationSeconds without NoExecute',
    'pods',
    (o) => {
      o.spec.tolerations = [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 }];
    },
    422,
    P +
      'spec.tolerations[0].effect: Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set',
  ],
  [
    'a liveness probe without a handler',
    'pods',
    (o) => {
      o.spec.containers[0].livenessProbe = { periodSeconds: 5 };
    },
    422,
    P + 'spec.containers[0].livenessProbe: Required value: must specify a handler type',
  ],
  // ValidateService and the NodePort allocator
  // (targetPort defaults to port, so it is refused too, as in Kubernetes)
  [
    'a service port out of range',
    'services',
    (o) => {
      o.spec.ports[0].port = 0;
    },
    422,
    S +
      '[spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive, spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive]',
  ],
  [
    'no service ports',
    'services',
    (o) => {
      o.spec.ports = [];
    },
    422,
    S + 'spec.ports: Required value',
  ],
  [
    'two unnamed service ports',
    'services',
    (o) => {
      o.spec.ports.push({ port: 81 });
    },
    422,
    S + '[spec.ports[0].name: Required value, spec.ports[1].name: Required value]',
  ],
  [
    'a service type unknown',
    'services',
    (o) => {
      o.spec.type = 'Public';
    },
    422,
    S +
      'spec.type: Unsupported value: "Public": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
  ],
  [
    'a nodePort on a ClusterIP service',
    'services',
    (o) => {
      o.spec.ports[0].nodePort = 30080;
    },
    422,
    S + "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
  ],
  [
    'a nodePort out of range',
    'services',
    (o) => {
      o.spec.type = 'NodePort';
      o.spec.ports[0].nodePort = 80;
    },
    422,
    S +
      'spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767',
  ],
  [
    'a targetPort name that is none',
    'services',
    (o) => {
      o.spec.ports[0].targetPort = 'HTTP';
    },
    422,
    S +
      '[spec.ports[0].targetPort: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-), spec.ports[0].targetPort: Invalid value: "HTTP": must contain at least one letter (a-z)]',
  ],
  [
    'a service name that is no DNS-1035 label',
    'services',
    (o) => {
      o.metadata.name = '1web';
    },
    422,
    "Service \"1web\" is invalid: metadata.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
  ],
  [
    'a clusterIP that is no address',
    'services',
    (o) => {
      o.spec.clusterIP = 'ten';
    },
    422,
    S + 'spec.clusterIPs[0]: Invalid value: "ten": must be a valid IP address (e.g. 10.9.8.7 or 2001:db8::ffff)',
  ],
  // Nodes and Namespaces
  [
    'a taint effect missing',
    'nodes',
    (o) => {
      o.spec.taints = [{ key: 'k', value: 'v' }];
    },
    422,
    'Node "n1" is invalid: spec.taints[0].effect: Required value',
  ],
  [
    'a duplicate taint',
    'nodes',
    (o) => {
      o.spec.taints = [
        { key: 'k', effect: 'NoSchedule' },
        { key: 'k', value: 'x', effect: 'NoSchedule' },
      ];
    },
    422,
    'Node "n1" is invalid: spec.taints[1]: Duplicate value: {"Key":"k","Value":"x","Effect":"NoSchedule","TimeAdded":null}: taints must be unique by key and effect pair',
  ],
  [
    'a negative capacity',
    'nodes',
    (o) => {
      o.status.capacity.cpu = '-2';
    },
    422,
    'Node "n1" is invalid: status.capacity.cpu: Invalid value: "-2": must be greater than or equal to 0',
  ],
  [
    'a namespace name with capitals',
    'namespaces',
    (o) => {
      o.metadata.name = 'Team';
    },
    422,
    `Namespace "Team" is invalid: metadata.name: Invalid value: "Team": ${DNS_LABEL}`,
  ],
];

describe('the API server refuses what Kubernetes refuses, with its messages', () => {
  it.each(ROWS)('%s', (_what, resource, spoil, code, message) => {
    const w = testWorld();
    const body = BASE[resource]();
    spoil(body);
    const r = w.kubectl({
      verb: 'create',
      resource,
      namespace: RESOURCES[resource].namespaced ? 'default' : undefined,
      body,
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.status.message).toBe(message);
    expect(r.code).toBe(code);
    expect(r.status.reason).toBe(code === 400 ? 'BadRequest' : 'Invalid');
  });

  it('the valid bodies are accepted', () => {
    const w = testWorld();
    for (const [resource, make] of Object.entries(BASE)) {
      const r = w.kubectl({
        verb: 'create',
        resource,
        namespace: RESOURCES[resource].namespaced ? 'default' : undefined,
        body: make(),
      });
      expect(r.ok, resource).toBe(true);
    }
  });

  it('a null field is the Go zero value: dropped, then defaulted', () => {
    const w = testWorld();
    const body = BASE.deployments();
    body.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: null, maxUnavailable: 1 } };
    body.spec.template.spec.containers[0].ports = null;
    const r = w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body });
    expect(r.ok).toBe(true);
    const o = (r as { object: Unstructured }).object;
    expect(o.spec.strategy.rollingUpdate).toEqual({ maxSurge: '25%', maxUnavailable: 1 });
    expect('ports' in o.spec.template.spec.containers[0]).toBe(false);
  });

  it('an update is decoded and validated too', () => {
    const w = testWorld();
    const made = w.kubectl({
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: BASE.deployments(),
    }) as { object: Unstructured };
    const next = structuredClone(made.object);
    next.spec.replicas = -3;
    const r = w.kubectl({ verb: 'update', resource: 'deployments', namespace: 'default', name: 'web', body: next });
    expect(!r.ok && r.status.message).toBe(D + 'spec.replicas: Invalid value: -3: must be greater than or equal to 0');
    next.spec.replicas = 'three';
    const r2 = w.kubectl({ verb: 'update', resource: 'deployments', namespace: 'default', name: 'web', body: next });
    expect(!r2.ok && r2.code).toBe(400);
  });
});
