// `kubectl explain --help` (pkg/cmd/explain/explain.go: explainLong, explainExamples, its flags and usage),
// byte for byte as the real kubectl v1.37.2 prints it (recorded by the oracle): the blank lines inside
// the examples keep the spaces kubectl prints, the flags their tabs.

/** `kubectl explain --help` (or -h), on stdout with exit code 0. */
export const EXPLAIN_HELP = `Describe fields and structure of various resources.

 This command describes the fields associated with each supported API resource. Fields are identified via a simple JSONPath identifier:

        TYPE.FIELDNAME[.FIELDNAME]
        
 Information about each field is retrieved from the server in OpenAPI format.

Use "kubectl api-resources" for a complete list of supported resources.

Examples:
  # Get the documentation of the resource and its fields
  kubectl explain pods
  
  # Get all the fields in the resource
  kubectl explain pods --recursive
  
  # Get fields in the resource up to a specific recursive depth
  kubectl explain pods --recursive --max-depth=2
  
  # Get the explanation for deployment in supported api versions
  kubectl explain deployments --api-version=apps/v1
  
  # Get the documentation of a specific field of a resource
  kubectl explain pods.spec.containers
  
  # Get the documentation of resources in different format
  kubectl explain deployment --output=plaintext-openapiv2

Options:
    --api-version='':
	Get different explanations for particular API version (API group/version)

    --max-depth=0:
	Maximum recursion depth when printing nested fields with --recursive. 0 means no limit. Requires --recursive when greater than 0.

    -o, --output='plaintext':
	Format in which to render the schema (plaintext, plaintext-openapiv2)

    -R, --recursive=false:
	Print the fields of fields. Use --max-depth to cap the recursion depth.

Usage:
  kubectl explain TYPE [--recursive=FALSE|TRUE] [--api-version=api-version-group] [-o|--output=plaintext|plaintext-openapiv2] [options]

Use "kubectl options" for a list of global command-line options (applies to all commands).
`;
