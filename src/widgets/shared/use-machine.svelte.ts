// A small runes adapter for an XState actor (instead of @xstate/svelte, which starts actors during
// the server render): the snapshot is reactive state, the actor starts only when the island mounts.
import { createActor, type Actor, type AnyStateMachine, type ActorOptions, type SnapshotFrom, type EventFrom } from 'xstate';

/** A machine's actor with a reactive snapshot; call start() from onMount and stop() on destroy. */
export function useMachine<M extends AnyStateMachine>(machine: M, options?: ActorOptions<M>) {
  const actor: Actor<M> = createActor(machine, options);
  let snapshot = $state.raw(actor.getSnapshot() as SnapshotFrom<M>);
  return {
    actor,
    /** The current snapshot (reactive). */
    get snapshot(): SnapshotFrom<M> { return snapshot; },
    send: (e: EventFrom<M>) => actor.send(e),
    start(): void {
      actor.subscribe((s) => { snapshot = s as SnapshotFrom<M>; });
      actor.start();
      snapshot = actor.getSnapshot() as SnapshotFrom<M>;
    },
    stop: (): void => { actor.stop(); },
  };
}
