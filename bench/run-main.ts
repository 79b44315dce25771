/**
 * The entry point of a bench script: runs `main`, exits 0 when it resolves, and prints the
 * error's stack and exits 1 when it fails (the systems it started are stopped by its own
 * `finally`; the exit ends anything left, such as keep-alive sockets).
 */
export function runMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
