// `kubectl auth` alone (pkg/cmd/auth/auth.go): the subcommand this simulator runs.

/** `kubectl auth` alone: the one subcommand simulated. */
export const AUTH_HELP = `Inspect authorization.

Available Commands:
  can-i         Check whether an action is allowed
`;
