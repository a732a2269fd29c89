// The selectors the API server refuses, in labels.Parse's and fields.ParseSelector's own words
// (k8s.io/apimachinery pkg/labels/selector.go, pkg/fields/selector.go, the field label conversions).
import { describe, expect, test } from 'vitest';
import { fieldSelectorError, labelSelectorError, selectorsError } from './selector-errors.ts';

const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('labelSelectorError (labels.Parse)', () => {
  test.each([
    ['', undefined],
    ['app=web', undefined],
    ['app==web,tier!=db', undefined],
    ['app in (a,b),!canary,x', undefined],
    ['x in (foo,,baz),y,z notin ()', undefined],
    ['app in (in,notin)', undefined],
    ['  app = web ', undefined],
    ['a=', undefined],
    ['n>5,m<1', undefined],
    // -1 parses as an integer but is no label value.
    ['m<-1', `unable to parse requirement: values[0][m]: Invalid value: "-1": ${LABEL_VALUE_MSG}`],
    ['app in (', "unable to parse requirement: found '', expected: ',', ')' or identifier"],
    ['app in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['app in a', "unable to parse requirement: found 'a' expected: '('"],
    ['app=web,', "found '', expected: identifier after ','"],
    ['app,,', "found ',', expected: identifier after ','"],
    ['=x', "found '=', expected: !, identifier, or 'end of string'"],
    ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ['!app=x', "found '=', expected: ',' or 'end of string'"],
    ['a=b=c', "found '=', expected: ',' or 'end of string'"],
    [
      'a>b',
      "unable to parse requirement: values[0]: Invalid value: \"b\": for 'Gt', 'Lt' operators, the value must be an integer",
    ],
    ['app=we/b', `unable to parse requirement: values[0][app]: Invalid value: "we/b": ${LABEL_VALUE_MSG}`],
    [
      '-app',
      "unable to parse requirement: <nil>: Invalid value: \"-app\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ],
    ['a=(', "unable to parse requirement: found '(', expected: identifier"],
    ['a=!', "unable to parse requirement: found '!', expected: identifier"],
  ])('%j', (s, want) => {
    expect(labelSelectorError(s)).toBe(want);
  });
});

describe("fieldSelectorError (fields.ParseSelector, then the kind's field label conversion)", () => {
  test.each([
    ['pods', 'spec.nodeName=node-1,status.phase!=Failed', undefined],
    ['pods', 'spec.bogus=x', 'field label not supported: spec.bogus'],
    // Terms are sorted before they are converted: the first unsupported in that order is named.
    ['pods', 'z.z=1,spec.bogus=x', 'field label not supported: spec.bogus'],
    ['pods', 'foo', "invalid selector: 'foo'; can't understand 'foo'"],
    ['pods', 'a=b,', 'field label not supported: a'],
    ['nodes', 'spec.unschedulable=true', undefined],
    ['nodes', 'spec.nodeName=x', 'field label not supported: spec.nodeName'],
    ['events', 'involvedObject.name=web,type=Normal', undefined],
    ['services', 'spec.type=ClusterIP', undefined],
    ['deployments', 'metadata.name=web', undefined],
    [
      'deployments',
      'spec.replicas=3',
      '"spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
    ],
    [
      'replicasets',
      'status.replicas=0',
      '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
    ],
  ])('%s %j', (resource, s, want) => {
    expect(fieldSelectorError(resource, s)).toBe(want);
  });
  test("a label selector's error comes first; both as a 400 BadRequest", () => {
    expect(selectorsError('pods', 'app in (', 'spec.bogus=x')).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: "unable to parse requirement: found '', expected: ',', ')' or identifier",
    });
    expect(selectorsError('pods', 'app', 'spec.bogus=x')?.message).toBe('field label not supported: spec.bogus');
    expect(selectorsError('pods', 'app', 'spec.nodeName=x')).toBeUndefined();
  });
});
