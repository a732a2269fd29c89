// The name and label checks of apimachinery's validation package (IsDNS1123Subdomain,
// IsQualifiedName, IsValidLabelValue) and their message builders: every label selector a list or
// watch carries is checked with them, so they stay in the core while the rest of the built-in
// validation (validation.ts) is a part loaded with kubectl or a figure that needs it.

/**
 * IsDNS1123Subdomain's pattern, `[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*`,
 * checked character by character: every create's name goes through it, and the regular expression
 * costs several times as much.
 */
export function isDNS1123Subdomain(s: string): boolean {
  if (s.length === 0) return false;
  let prev = 46; // the start is like a '.': a label follows
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) prev = c;
    else if (c === 45 && prev !== 46)
      prev = c; // '-' inside a label, not at its start
    else if (c === 46 && prev !== 46 && prev !== 45)
      prev = c; // '.' after a label that ends alphanumeric
    else return false;
  }
  return prev !== 46 && prev !== 45;
}
/** validation.RegexError: the message, its examples, and the pattern. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (!examples.length) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}
/** validation.MaxLenError. */
export const maxLenError = (n: number): string => `must be no more than ${n} characters`;
/** validation.InclusiveRangeError. */
export const inclusiveRangeError = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;

const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const QUALIFIED_NAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
/** IsDNS1123Label's message. */
export const DNS1123_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** validation.IsDNS1123Subdomain's messages. */
export function dns1123SubdomainErrors(s: string): string[] {
  const errs: string[] = [];
  if (s.length > 253) errs.push(maxLenError(253));
  if (!isDNS1123Subdomain(s)) errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

/** validation.IsQualifiedName's messages (label keys, annotation keys, resource names). */
export function qualifiedNameErrors(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0];
  else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (!prefix.length) errs.push('prefix part must be non-empty');
    else errs.push(...dns1123SubdomainErrors(prefix).map((m) => 'prefix part ' + m));
  } else {
    return [
      'a qualified name ' +
        regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc') +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (!name.length) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part ' + maxLenError(63));
  if (!QUALIFIED_NAME.test(name))
    errs.push('name part ' + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc'));
  return errs;
}

/** validation.IsValidLabelValue's messages. */
export function labelValueErrors(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLenError(63));
  if (!LABEL_VALUE.test(v))
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        `(${QUALIFIED_NAME_FMT})?`,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  return errs;
}
