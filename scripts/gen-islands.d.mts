/** The generated files whose text on disk differs from what the registry gives. */
export function staleFiles(): string[];
