// The kubelet's first step in EnsureImageExists: applyDefaultImageTag parses the image reference
// (parsers.ParseImageName → github.com/distribution/reference ParseNormalizedNamed); one it cannot
// parse never reaches the runtime, and the container waits as InvalidImageName.

// distribution/reference's grammar (regexp.go), anchored.
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const HOST = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[(?:[a-fA-F0-9:]+)\\])`;
const DOMAIN_AND_PORT = `${HOST}(?::[0-9]+)?`;
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*';
const NAME = `(?:${DOMAIN_AND_PORT}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(`^(${NAME})(?::(${TAG}))?(?:@(${DIGEST}))?$`);
const ANCHORED_IDENTIFIER = /^[a-f0-9]{64}$/;
/** NameTotalLengthMax. */
const NAME_TOTAL_LENGTH_MAX = 255;

/** splitDockerDomain: the registry, and the rest (docker.io/library/ added where it is implied). */
function splitDockerDomain(name: string): [string, string] {
  const i = name.indexOf('/');
  let domain: string;
  let remainder: string;
  if (
    i === -1 ||
    (!/[.:]/.test(name.slice(0, i)) &&
      name.slice(0, i) !== 'localhost' &&
      name.slice(0, i).toLowerCase() === name.slice(0, i))
  ) {
    domain = 'docker.io';
    remainder = name;
  } else {
    domain = name.slice(0, i);
    remainder = name.slice(i + 1);
  }
  if (domain === 'index.docker.io') domain = 'docker.io';
  if (domain === 'docker.io' && !remainder.includes('/')) remainder = 'library/' + remainder;
  return [domain, remainder];
}

/** ParseNormalizedNamed's error for an image reference, or undefined when it parses. */
export function parseNormalizedNamedError(s: string): string | undefined {
  if (ANCHORED_IDENTIFIER.test(s)) return `invalid repository name (${s}), cannot specify 64-byte hexadecimal strings`;
  const [domain, remainder] = splitDockerDomain(s);
  const tagSep = remainder.indexOf(':');
  const remoteName = tagSep > -1 ? remainder.slice(0, tagSep) : remainder;
  if (remoteName.toLowerCase() !== remoteName)
    return `invalid reference format: repository name (${remoteName}) must be lowercase`;
  // Parse(domain + "/" + remainder)
  const full = `${domain}/${remainder}`;
  const m = REFERENCE.exec(full);
  if (!m) {
    if (REFERENCE.test(full.toLowerCase())) return 'repository name must be lowercase';
    return 'invalid reference format';
  }
  if (m[1].length > NAME_TOTAL_LENGTH_MAX)
    return `repository name must not be more than ${NAME_TOTAL_LENGTH_MAX} characters`;
  return undefined;
}

/**
 * applyDefaultImageTag's failure as EnsureImageExists reports it (the InspectFailed event's text
 * and the container's waiting message), or undefined for an image it can pull.
 */
export function invalidImageNameMessage(image: string): string | undefined {
  const err = parseNormalizedNamedError(image);
  if (err === undefined) return undefined;
  return `Failed to apply default image tag ${JSON.stringify(image)}: couldn't parse image name ${JSON.stringify(image)}: ${err}`;
}
