// The one read-only window views and figures have onto the API server's state: its stored objects
// (read, never written: a figure changes the cluster only through requests, as kubectl would) and
// the compaction interval a figure's history spans.
export { COMPACTION_INTERVAL_MS, storeGet, storeList } from '../apiserver/index.ts';
