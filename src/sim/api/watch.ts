// The watch as a client sees it (k8s.io/apimachinery's watch package): the events a watcher's queue
// receives, the end of a watch, and the options a client opens one with.
import type { KObject } from './request.ts';
import type { Status } from './status.ts';

/** Watch event types as the API server sends them. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

/** What a watcher's component receives in its queue. */
export interface WatchNotification {
  type: 'watch';
  watchId: string;
  eventType: WatchEventType;
  object: KObject;
  revision: number;
}

/** Sent to a component when its watch ends (API server down, or 410 while resuming). */
export interface WatchClosed {
  type: 'watch-closed';
  watchId: string;
  status?: Status;
}

/** Options for opening a watch. */
export interface WatchOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Start after this revision; omit (or "0") to get synthetic ADDED events for the current state first. */
  resourceVersion?: string;
  /**
   * A streaming list (WatchList, client-go's WatchListClient): the current state as ADDED events,
   * then a BOOKMARK annotated k8s.io/initial-events-end, then the changes. Needs
   * resourceVersionMatch NotOlderThan and allowWatchBookmarks, as ValidateListOptions says.
   */
  sendInitialEvents?: boolean;
  resourceVersionMatch?: 'NotOlderThan' | 'Exact';
  allowWatchBookmarks?: boolean;
  /**
   * How long the client asks the watch to last (client-go's reflector: 5 to 10 minutes); logged in
   * the query. The client that sends it closes and re-opens the watch when the time is up, as the
   * server's close would make it do.
   */
  timeoutSeconds?: number;
  /** kubectl's --request-timeout (client-go's Timeout, a Go duration), only logged in the query. */
  timeout?: string;
}

/** The annotation on the BOOKMARK that ends a streaming list's initial events. */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';
