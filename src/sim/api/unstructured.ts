// Objects whose kind the code does not know statically, as apimachinery's unstructured package reads
// them (k8s.io/apimachinery/pkg/apis/meta/v1/unstructured/helpers.go): a map of JSON values and
// accessors that walk a path of fields and answer undefined when a field is missing or of another type.
// Code that knows the kind converts once (`fromUnstructured`, runtime.DefaultUnstructuredConverter's
// role) and reads the kubernetes-types shape with the type checker's help.

/** Any JSON object: a stored object, a manifest, a patch, a part of one. */
export type Unstructured = Record<string, unknown>;

/** A JSON object (not null, not an array), as `unstructured` tells a map from other values. */
export function isMap(v: unknown): v is Unstructured {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** NestedFieldNoCopy: the value at the path of fields, or undefined when a step is missing or not a map. */
export function nestedField(obj: unknown, ...fields: string[]): unknown {
  let v: unknown = obj;
  for (const f of fields) {
    if (!isMap(v)) return undefined;
    v = v[f];
  }
  return v;
}

/** NestedString: the string at the path, or undefined. */
export function nestedString(obj: unknown, ...fields: string[]): string | undefined {
  const v = nestedField(obj, ...fields);
  return typeof v === 'string' ? v : undefined;
}

/** NestedInt64 (and NestedFloat64: JSON numbers are one type here): the number at the path, or undefined. */
export function nestedNumber(obj: unknown, ...fields: string[]): number | undefined {
  const v = nestedField(obj, ...fields);
  return typeof v === 'number' ? v : undefined;
}

/** NestedBool: the boolean at the path, or undefined. */
export function nestedBool(obj: unknown, ...fields: string[]): boolean | undefined {
  const v = nestedField(obj, ...fields);
  return typeof v === 'boolean' ? v : undefined;
}

/** NestedSlice: the array at the path, or undefined. */
export function nestedSlice(obj: unknown, ...fields: string[]): unknown[] | undefined {
  const v = nestedField(obj, ...fields);
  return Array.isArray(v) ? v : undefined;
}

/** NestedMap: the object at the path, or undefined. */
export function nestedMap(obj: unknown, ...fields: string[]): Unstructured | undefined {
  const v = nestedField(obj, ...fields);
  return isMap(v) ? v : undefined;
}

/** NestedStringMap: the string-valued map at the path (labels, annotations, nodeSelector), or undefined. */
export function nestedStringMap(obj: unknown, ...fields: string[]): Record<string, string> | undefined {
  const m = nestedMap(obj, ...fields);
  if (!m) return undefined;
  for (const v of Object.values(m)) if (typeof v !== 'string') return undefined;
  return m as Record<string, string>;
}

/**
 * DefaultUnstructuredConverter.FromUnstructured: the same object read as the kind the caller knows it
 * is (the API server's validation and the store's decoding already checked its shape). No copy: the
 * one place where an unstructured object becomes a typed one.
 */
export function fromUnstructured<T extends object>(obj: Unstructured | object): T {
  return obj as T;
}

/** DefaultUnstructuredConverter.ToUnstructured: a typed object read as a map of JSON values. No copy. */
export function toUnstructured(obj: object): Unstructured {
  return obj as Unstructured;
}
