// What a bare `kubectl` prints (pkg/cmd/cmd.go's root command): the commands this simulator runs.

/** kubectl's short help (what a bare `kubectl` prints). */
export const KUBECTL_HELP = `kubectl controls the Kubernetes cluster manager.

 Find more information at: https://kubernetes.io/docs/reference/kubectl/

Commands in this simulator:
  create             Create a deployment, namespace, poddisruptionbudget, priorityclass or service (clusterip, nodeport), or objects from a file
  run                Run a particular image on the cluster (one pod)
  expose             Take a deployment and expose it as a new Kubernetes service
  get                Display one or many resources
  describe           Show details of a specific resource
  events             List events
  logs               Print the logs for a container in a pod
  apply              Apply a configuration to a resource by file name or stdin
  delete             Delete resources by names, label selectors or file names
  scale              Set a new size for a deployment or replica set
  set image          Update the image of a pod template
  set env            Update environment variables on a pod template
  set resources      Update resource requests/limits on objects with pod templates
  rollout            Manage the rollout of a deployment (status, history, undo, pause, resume, restart)
  label              Update the labels on a resource
  annotate           Update the annotations on a resource
  patch              Update fields of a resource (strategic merge, JSON merge or JSON patch)
  top                Display resource usage (needs a metrics-server, which this cluster does not run)
  auth can-i         Check whether an action is allowed (--as to ask for another user)
  cordon, uncordon   Mark node as unschedulable / schedulable
  drain              Drain node in preparation for maintenance
  taint              Update the taints on one or more nodes
  cluster-info       Display cluster information
  api-resources      Print the supported API resources on the server
  api-versions       Print the supported API versions on the server
  version            Print the client and server version information
  wait               Wait for a specific condition on one or many resources
`;
