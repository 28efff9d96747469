/** An error the worker reports as data: why a document could not be read (the main thread words it). */
export class DocError extends Error {
  constructor(
    readonly reason: "encrypted" | "invalid" | "too_large" | "bad_request",
    message: string,
  ) {
    super(message);
  }
}
