/**
 * `bucket`, pushing onto `reads` the bytes each `get` that finds its object delivers (a ranged get: the range's
 * length): what a test pins as the bytes a request read from R2.
 */
export function recordingGets(bucket: R2Bucket, reads: number[]): R2Bucket {
  return new Proxy(bucket, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (property !== "get") return typeof value === "function" ? value.bind(target) : value;
      return async (key: string, options?: R2GetOptions) => {
        const object = await target.get(key, options);
        const range = options?.range as { length: number } | undefined;
        if (object) reads.push(range?.length ?? object.size);
        return object;
      };
    },
  });
}
