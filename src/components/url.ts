/** Prefixes a site-absolute path ("/scheduler/#filter") with the configured base path. */
export function withBase(path: string): string {
  const base = import.meta.env.BASE_URL.replace(/\/$/, '');
  return path.startsWith('/') ? `${base}${path}` : path;
}
