// Controller names (cmd/kube-controller-manager/names), for the controllers the API server's kubectl
// part names too: their identities, and the starts a reader's write wakes. A module with no imports,
// so the server can name a controller without importing one.

/** The namespace controller's component type and instance name (World.startNamespaceController starts it by this name). */
export const NAMESPACE_CONTROLLER = 'namespace-controller';
/** The disruption controller's (World.startController starts it by this name). */
export const DISRUPTION_CONTROLLER = 'disruption-controller';
/** The serviceaccount controller's (its service account's name, as the real requests carry it). */
export const SERVICE_ACCOUNT_CONTROLLER = 'service-account-controller';
/** The root-CA publisher's (its service account's name). */
export const ROOT_CA_CERT_PUBLISHER = 'root-ca-cert-publisher';
