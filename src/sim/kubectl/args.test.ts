import { describe, expect, it } from 'vitest';
import { FlagError, parseFlags } from './args.ts';

const defs = {
  stdin: { kind: 'bool' as const, short: 'i' },
  tty: { kind: 'bool' as const, short: 't' },
  container: { kind: 'string' as const, short: 'c' },
};

describe('parseFlags shorthands (pflag parseShortArg)', () => {
  it('runs bool shorthands together, and lets a valued one take the rest or the next word', () => {
    expect(parseFlags(['-it', 'web'], defs)).toEqual({ args: ['web'], flags: { stdin: true, tty: true } });
    expect(parseFlags(['-itcnginx'], defs).flags).toEqual({ stdin: true, tty: true, container: 'nginx' });
    expect(parseFlags(['-ic', 'nginx'], defs).flags).toEqual({ stdin: true, container: 'nginx' });
    expect(parseFlags(['-t=false'], defs).flags).toEqual({ tty: false });
  });
  it('names the unknown letter in the group', () => {
    expect(() => parseFlags(['-iz'], defs)).toThrow(new FlagError("unknown shorthand flag: 'z' in -iz"));
    expect(() => parseFlags(['-t=maybe'], defs)).toThrow(
      'invalid argument "maybe" for "-t, --tty" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
    );
  });
});
