/** A failure that retrying will not fix: the worker buries the job at once. */
export class PermanentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PermanentError";
  }
}
