// `kubectl top` alone (pkg/cmd/top/top.go): its subcommands.

/** `kubectl top` alone: a command made of subcommands prints its help when given none. */
export const TOP_HELP = `Display resource (CPU/memory) usage.

Available Commands:
  node          Display resource (CPU/memory) usage of nodes
  pod           Display resource (CPU/memory) usage of pods
`;
