/** How a runtime with a `WorkerGlobalScope` looks to the browser guard. */
export interface WorkerScopeShape {
  /** True in browsers' workers; false in Cloudflare's workerd, whose global object is no instance of it. */
  globalIsInstance: boolean;
  /** `navigator.userAgent`, e.g. `'Cloudflare-Workers'`, or undefined for no navigator. */
  userAgent: string | undefined;
}

/**
 * Gives this process a `WorkerGlobalScope` (and a `navigator`) shaped like a runtime's, and returns
 * the function that puts the globals back as they were.
 *
 * @example
 * ```ts
 * const restore = simulateWorkerScope({ globalIsInstance: false, userAgent: 'Cloudflare-Workers' });
 * try { new AdminClient(options); } finally { restore(); }
 * ```
 */
export function simulateWorkerScope(shape: WorkerScopeShape): () => void {
  const scope = globalThis as { WorkerGlobalScope?: unknown };
  const navigator = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  function WorkerGlobalScope(): void {}
  // `globalThis instanceof F` holds when F.prototype is on the global object's prototype chain.
  WorkerGlobalScope.prototype = shape.globalIsInstance ? Object.prototype : Object.create(null);
  scope.WorkerGlobalScope = WorkerGlobalScope;
  Object.defineProperty(globalThis, 'navigator', { value: shape.userAgent === undefined ? undefined : { userAgent: shape.userAgent }, configurable: true, writable: true });
  return () => {
    delete scope.WorkerGlobalScope;
    if (navigator === undefined) delete (globalThis as { navigator?: unknown }).navigator;
    else Object.defineProperty(globalThis, 'navigator', navigator);
  };
}
