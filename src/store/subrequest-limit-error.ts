/** Thrown by a binding call past the request's subrequest limit, refused as the platform would refuse it. */
export class SubrequestLimitError extends Error {
  override name = "SubrequestLimitError";
  /** The limit that was reached. */
  readonly limit: number;

  /** Builds the error for `what`, the call refused under `limit`. */
  constructor(what: string, limit: number) {
    super(`Cannot call ${what}: this request has used all ${limit} subrequests it may make`);
    this.limit = limit;
  }
}
