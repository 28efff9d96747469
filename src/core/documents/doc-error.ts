/** An error the worker reports as data: why a document could not be read (the main thread words it). */
export class DocError extends Error {
  constructor(
    readonly reason: "encrypted" | "invalid" | "too_large" | "bad_request" | "not_utf8",
    message: string,
    /** `not_utf8`: the encoding the text was not valid in ("utf-8": none was named). */
    readonly encoding?: string,
  ) {
    super(message);
  }
}
