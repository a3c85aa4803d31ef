/** The `code` of a Node system error (`'ENOENT'`, `'EACCES'`, ...), or `'EIO'` when there is none. */
export function ioErrorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { code } = error as { code?: unknown };
    if (typeof code === 'string') return code;
  }
  return 'EIO';
}
