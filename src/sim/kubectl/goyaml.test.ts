import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { GO_YAML_V2_TAGS, resolveNumber } from './goyaml.ts';

const read = (text: string): unknown =>
  parseAllDocuments(text, { schema: 'failsafe', customTags: GO_YAML_V2_TAGS, merge: true })[0].toJS();

describe('plain scalars as go-yaml v2 resolves them', () => {
  it.each([
    ['yes', true],
    ['Yes', true],
    ['YES', true],
    ['y', true],
    ['Y', true],
    ['on', true],
    ['On', true],
    ['true', true],
    ['TRUE', true],
    ['no', false],
    ['n', false],
    ['N', false],
    ['off', false],
    ['OFF', false],
    ['false', false],
    ['False', false],
    ['~', null],
    ['null', null],
    ['NULL', null],
    ['', null],
    ['yEs', 'yEs'],
    ['tRUE', 'tRUE'],
    ['nope', 'nope'],
  ])('%j', (text, want) => {
    expect(read(`v: ${text}`)).toEqual({ v: want });
  });

  it.each([
    ['1', 1],
    ['-12', -12],
    ['+5', 5],
    ['0777', 511],
    ['0o17', 15],
    ['0x1F', 31],
    ['0b101', 5],
    ['-0b11', -3],
    ['1_000', 1000],
    ['08', 8],
    ['1.5', 1.5],
    ['.5', 0.5],
    ['1e3', 1000],
    ['1e400', '1e400'],
    ['-1e400', '-1e400'],
    ['1e-400', 0],
    ['2001-12-14', '2001-12-14'],
    ['1.2.3', '1.2.3'],
    ['-', '-'],
    ['.', '.'],
    ['1__0', 10],
    ['._5', '._5'],
  ])('%s', (text, want) => {
    expect(resolveNumber(text)).toBe(want);
  });

  it('specials, quoting, keys and merge keys', () => {
    expect(read('a: .inf\nb: -.Inf\nc: .NaN')).toEqual({ a: Infinity, b: -Infinity, c: NaN });
    expect(read('a: "yes"\nb: \'0777\'\nc: |\n  on\n')).toEqual({ a: 'yes', b: '0777', c: 'on\n' });
    expect(read('on: 1\nno: 2')).toEqual({ true: 1, false: 2 });
    expect(read('base: &b {cpu: 1, memory: 2}\nx:\n  <<: *b\n  cpu: 3\n')).toEqual({
      base: { cpu: 1, memory: 2 },
      x: { cpu: 3, memory: 2 },
    });
  });
});
