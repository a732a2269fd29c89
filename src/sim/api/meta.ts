// Well-known names of the API's object metadata (k8s.io/apimachinery's meta/v1): the garbage
// collector's finalizers, which clients and the server both name.

/** metav1.FinalizerOrphanDependents and metav1.FinalizerDeleteDependents. */
export const FINALIZER_ORPHAN = 'orphan';
/** The finalizer of a foreground (blocking) deletion. */
export const FINALIZER_FOREGROUND = 'foregroundDeletion';
