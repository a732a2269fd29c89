// xstate's setup() without the action creators it hands back (sendTo, log, emit, enqueueActions, …):
// returning them makes the bundler keep every one, used or not (~0.8 KB gzip in the worker's core).
// Only createMachine is returned, and it builds the machine exactly as setup's own does.
import { createMachine, type setup as xstateSetup } from 'xstate';

/** setup(implementations).createMachine(config), as xstate builds it; nothing else of setup's result is there. */
export const setup = ((impl: Parameters<typeof createMachine>[1] & { schemas?: unknown }) => ({
  createMachine: (config: Parameters<typeof createMachine>[0]) =>
    createMachine(
      { ...config, schemas: impl.schemas },
      { actors: impl.actors, actions: impl.actions, guards: impl.guards, delays: impl.delays },
    ),
})) as unknown as typeof xstateSetup;
