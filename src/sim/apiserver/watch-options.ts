// ValidateListOptions for a watch, in kubectl's part of the API server (kubectl-extras.ts): the
// components' informers always send the streaming-list options together, so only kubectl's requests can fail it.
import type { WatchOptions } from '../api/watch.ts';

/** ValidateListOptions for a watch: the streaming-list options go together. */
export function validateWatchOptions(opts: WatchOptions): string | undefined {
  if (opts.sendInitialEvents !== undefined) {
    if (opts.resourceVersionMatch !== 'NotOlderThan')
      return 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless resourceVersionMatch is set to NotOlderThan';
    if (!opts.allowWatchBookmarks)
      return 'allowWatchBookmarks: Forbidden: allowWatchBookmarks must be set to true when sendInitialEvents is set';
  } else if (opts.resourceVersionMatch) {
    return 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided';
  }
  return undefined;
}
