// What the API server refuses in a LIST's or WATCH's selectors (a 400 BadRequest with the error's own
// text): in kubectl's part of the API server (kubectl-extras.ts). The components and the figures' own
// actions send only selectors that parse, so a figure's cluster filters with selectors.ts alone until
// kubectl (or a link's replay) installs that part.
import { type Status, statusError } from '../api/status.ts';
import { labelValueErrors, qualifiedNameErrors } from '../api/name-validation.ts';

/** labels.Parse's lexer tokens. */
type Tok = 'error' | 'eos' | ')' | ',' | '!' | '==' | '=' | '>' | 'id' | 'in' | '<' | '!=' | 'notin' | '(';
const LITERAL_TOKENS: Record<string, Tok> = {
  ')': ')',
  ',': ',',
  '!': '!',
  '==': '==',
  '=': '=',
  '>': '>',
  in: 'in',
  '<': '<',
  '!=': '!=',
  notin: 'notin',
  '(': '(',
};
const BINARY_OPERATORS = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];
const isSelectorSpace = (ch: string) => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecialSymbol = (ch: string) => '=!(),><'.includes(ch) && ch !== '';

/** labels.Lexer over the whole string: the scanned (token, literal) pairs, ending with eos. */
function lexSelector(s: string): [Tok, string][] {
  const out: [Tok, string][] = [];
  let pos = 0;
  const read = () => (pos < s.length ? s[pos++] : '');
  for (;;) {
    let ch = read();
    while (ch !== '' && isSelectorSpace(ch)) ch = read();
    if (ch === '') {
      out.push(['eos', '']);
      return out;
    }
    pos--;
    if (isSpecialSymbol(ch)) {
      // scanSpecialSymbol: the longest operator the symbols spell.
      let buf = '';
      let last: [Tok, string] | undefined;
      for (;;) {
        const c = read();
        if (c === '') break;
        if (isSpecialSymbol(c)) {
          buf += c;
          if (LITERAL_TOKENS[buf]) last = [LITERAL_TOKENS[buf], buf];
          else if (last) {
            pos--;
            break;
          }
        } else {
          pos--;
          break;
        }
      }
      out.push(last ?? ['error', `error expected: keyword found '${buf}'`]);
    } else {
      let buf = '';
      for (;;) {
        const c = read();
        if (c === '') break;
        if (isSpecialSymbol(c) || isSelectorSpace(c)) {
          pos--;
          break;
        }
        buf += c;
      }
      out.push([LITERAL_TOKENS[buf] ?? 'id', buf]);
    }
  }
}

/** field.Invalid(path, value, detail).Error() for a string value. */
const invalidValue = (path: string, value: string, detail: string) =>
  `${path}: Invalid value: ${JSON.stringify(value)}: ${detail}`;

/** utilerrors.NewAggregate(errs).Error(): one message, or the distinct ones in brackets. */
function aggregate(errs: string[]): string | undefined {
  const seen = [...new Set(errs)];
  if (!seen.length) return undefined;
  return seen.length === 1 ? seen[0] : `[${seen.join(', ')}]`;
}

/**
 * labels.Parse's error for a label selector string, as the API server answers it (the text of the
 * 400 BadRequest), or undefined when it parses. A port of its Parser: the requirements it builds
 * are ../api/labels.ts's to match.
 */
export function labelSelectorError(selector: string): string | undefined {
  const items = lexSelector(selector);
  let p = 0;
  // In a value's place `in` and `notin` are identifiers.
  const asValue = (t: [Tok, string]): [Tok, string] => (t[0] === 'in' || t[0] === 'notin' ? ['id', t[1]] : t);
  const lookahead = () => asValue(items[p]);
  const consume = (values = true) => (values ? asValue(items[p++]) : items[p++]);
  const requirement = (): string | undefined => {
    // parseKeyAndInferOperator
    let [tok, lit] = consume();
    let unary = false;
    if (tok === '!') {
      unary = true;
      [tok, lit] = consume();
    }
    if (tok !== 'id') return `found '${lit}', expected: identifier`;
    const keyErrs = qualifiedNameErrors(lit);
    if (keyErrs.length) return invalidValue('<nil>', lit, keyErrs.join('; '));
    const key = lit;
    const next = lookahead()[0];
    if (next === 'eos' || next === ',') return undefined;
    if (unary) return undefined; // DoesNotExist takes no operator: what follows is the caller's to refuse
    // parseOperator
    const [opTok, opLit] = consume(false);
    let values: string[];
    if (opTok === 'in' || opTok === 'notin') {
      // parseValues
      const [t1, l1] = consume();
      if (t1 !== '(') return `found '${l1}' expected: '('`;
      const [t2, l2] = lookahead();
      if (t2 === 'id' || t2 === ',') {
        const set = new Set<string>();
        for (;;) {
          const [t, l] = consume();
          if (t === 'id') {
            set.add(l);
            const [n, nl] = lookahead();
            if (n === ',') continue;
            if (n === ')') break;
            return `found '${nl}', expected: ',' or ')'`;
          } else if (t === ',') {
            if (!set.size) set.add('');
            const n = lookahead()[0];
            if (n === ')') {
              set.add('');
              break;
            }
            if (n === ',') set.add('');
          } else return `found '${l}', expected: ',', or identifier`;
        }
        if (consume()[0] !== ')') return `found '${l2}', expected: ')'`;
        values = [...set].sort();
      } else if (t2 === ')') {
        consume();
        values = [''];
      } else return `found '${l2}', expected: ',', ')' or identifier`;
    } else if (opTok === '=' || opTok === '==' || opTok === '!=' || opTok === '>' || opTok === '<') {
      // parseExactValue
      const n = lookahead()[0];
      if (n === 'eos' || n === ',') values = [''];
      else {
        const [t, l] = consume();
        if (t !== 'id') return `found '${l}', expected: identifier`;
        values = [l];
      }
      if ((opTok === '>' || opTok === '<') && !/^[+-]?\d+$/.test(values[0])) {
        return aggregate([
          invalidValue('values[0]', values[0], "for 'Gt', 'Lt' operators, the value must be an integer"),
          ...values.flatMap((v, i) =>
            labelValueErrors(v).length ? [invalidValue(`values[${i}][${key}]`, v, labelValueErrors(v).join('; '))] : [],
          ),
        ]);
      }
    } else return `found '${opLit}', expected: ${BINARY_OPERATORS.join(', ')}`;
    // NewRequirement: each value a valid label value.
    return aggregate(
      values.flatMap((v, i) =>
        labelValueErrors(v).length ? [invalidValue(`values[${i}][${key}]`, v, labelValueErrors(v).join('; '))] : [],
      ),
    );
  };
  for (;;) {
    const [tok, lit] = lookahead();
    if (tok === 'id' || tok === '!') {
      const err = requirement();
      if (err) return `unable to parse requirement: ${err}`;
      const [t, l] = consume();
      if (t === 'eos') return undefined;
      if (t === ',') {
        const [t2, l2] = lookahead();
        if (t2 !== 'id' && t2 !== '!') return `found '${l2}', expected: identifier after ','`;
      } else return `found '${l}', expected: ',' or 'end of string'`;
    } else if (tok === 'eos') return undefined;
    else return `found '${lit}', expected: !, identifier, or 'end of string'`;
  }
}

/** The field labels each kind's conversion function accepts (pkg/apis/core/v1/conversion.go); others take DefaultMetaV1FieldSelectorConversion's two. */
const FIELD_LABELS: Record<string, readonly string[]> = {
  pods: [
    'metadata.name',
    'metadata.namespace',
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.podIPs',
    'status.nominatedNodeName',
    'spec.host',
  ],
  nodes: ['metadata.name', 'spec.unschedulable'],
  events: [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
    'metadata.namespace',
    'metadata.name',
  ],
  namespaces: ['status.phase', 'metadata.name'],
  secrets: ['type', 'metadata.namespace', 'metadata.name'],
  services: ['metadata.namespace', 'metadata.name', 'spec.clusterIP', 'spec.type'],
};

/** fields.ParseSelector's split into terms: at commas a backslash does not escape. */
function splitFieldTerms(s: string): string[] {
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

/**
 * The API server's error for a LIST's field selector of `resource` (core/v1 names): a term it cannot
 * split (fields.ParseSelector), then, in sorted order, a field the kind's conversion does not know;
 * undefined when it is served.
 */
export function fieldSelectorError(resource: string, selector: string): string | undefined {
  if (!selector) return undefined;
  const terms = splitFieldTerms(selector).sort();
  const fields: string[] = [];
  for (const term of terms) {
    if (term === '') continue;
    const m = /^(.*?)(!=|==|=)/s.exec(term);
    if (!m) return `invalid selector: '${selector}'; can't understand '${term}'`;
    fields.push(m[1]);
  }
  const known = FIELD_LABELS[resource];
  for (const f of fields) {
    if (known && !known.includes(f)) return `field label not supported: ${f}`;
    if (!known && f !== 'metadata.name' && f !== 'metadata.namespace')
      return `"${f}" is not a known field selector: only "metadata.name", "metadata.namespace"`;
  }
  return undefined;
}

/** The 400 BadRequest a LIST or WATCH answers for its selectors (the label selector's error first), or undefined. */
export function selectorsError(
  resource: string,
  labelSelector: string | undefined,
  fieldSelector: string | undefined,
): Status | undefined {
  const msg =
    (labelSelector ? labelSelectorError(labelSelector) : undefined) ??
    (fieldSelector ? fieldSelectorError(resource, fieldSelector) : undefined);
  return msg === undefined ? undefined : statusError(400, 'BadRequest', msg);
}
