import { describe, expect, test } from "vitest";
import { describeProgress, UploadProgress } from "../../src/page/upload-progress.ts";

describe("UploadProgress", () => {
  test("the rate and time left come from the readings, the first one being the baseline", () => {
    const progress = new UploadProgress();
    progress.update(80e6, 200e6, 0); // a resumed upload: 80 MB were there before
    expect(progress.reading()).toEqual({ sent: 80e6, total: 200e6, bytesPerSecond: undefined, secondsLeft: undefined });
    progress.update(120e6, 200e6, 1000);
    expect(progress.reading()).toEqual({ sent: 120e6, total: 200e6, bytesPerSecond: 40e6, secondsLeft: 2 });
    expect(describeProgress(progress.reading())).toBe("120 MB of 200 MB · 40.0 MB/s · 2s left");
  });

  test("the rate follows the last five seconds", () => {
    const progress = new UploadProgress();
    // 1 MB/s for five seconds, then 10 MB/s for five more.
    for (let second = 0; second <= 10; second++) {
      progress.update(second <= 5 ? second * 1e6 : 5e6 + (second - 5) * 10e6, 1e9, second * 1000);
    }
    expect(progress.reading().bytesPerSecond).toBe(10e6);
  });

  test("fewer bytes than before start the readings afresh", () => {
    const progress = new UploadProgress();
    progress.update(50e6, 100e6, 0);
    progress.update(60e6, 100e6, 1000);
    progress.update(10e6, 100e6, 2000);
    expect(progress.reading().bytesPerSecond).toBeUndefined();
    expect(describeProgress(progress.reading())).toBe("10 MB of 100 MB");
  });
});
