// `kubectl describe --help` (pkg/cmd/describe/describe.go: describeLong, describeExample, its flags and usage),
// byte for byte: the blank lines inside the examples keep the spaces kubectl prints, the flags their tabs.

/** `kubectl describe --help` (or -h, whatever else is on the line), as kubectl v1.37.2 prints it: on stdout, exit code 0. */
export const DESCRIBE_HELP = `Show details of a specific resource or group of resources.

 Print a detailed description of the selected resources, including related resources such as events or controllers. You may select a single object by name, all objects of that type, provide a name prefix, or label selector. For example:

        $ kubectl describe TYPE NAME_PREFIX
        
 will first check for an exact match on TYPE and NAME_PREFIX. If no such resource exists, it will output details for every resource that has a name prefixed with NAME_PREFIX.

Use "kubectl api-resources" for a complete list of supported resources.

Examples:
  # Describe a node
  kubectl describe nodes kubernetes-node-emt8.c.myproject.internal
  
  # Describe a pod
  kubectl describe pods/nginx
  
  # Describe a pod identified by type and name in "pod.json"
  kubectl describe -f pod.json
  
  # Describe all pods
  kubectl describe pods
  
  # Describe pods by label name=myLabel
  kubectl describe pods -l name=myLabel
  
  # Describe all pods managed by the 'frontend' replication controller
  # (rc-created pods get the name of the rc as a prefix in the pod name)
  kubectl describe pods frontend

Options:
    -A, --all-namespaces=false:
	If present, list the requested object(s) across all namespaces. Namespace in current context is ignored even if specified with --namespace.

    --chunk-size=500:
	Return large lists in chunks rather than all at once. Pass 0 to disable.

    -f, --filename=[]:
	Filename, directory, or URL to files containing the resource to describe

    -k, --kustomize='':
	Process the kustomization directory. This flag can't be used together with -f or -R.

    -R, --recursive=false:
	Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory.

    -l, --selector='':
	Selector (label query) to filter on, supports '=', '==', '!=', 'in', 'notin'.(e.g. -l key1=value1,key2=value2,key3 in (value3)). Matching objects must satisfy all of the specified label constraints.

    --show-events=true:
	If true, display events related to the described object. Defaults to true for a single object, false for multiple objects and prefix matching.

Usage:
  kubectl describe (-f FILENAME | TYPE [NAME_PREFIX | -l label] | TYPE/NAME) [options]

Use "kubectl options" for a list of global command-line options (applies to all commands).
`;
