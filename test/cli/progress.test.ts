import { Writable } from "node:stream";
import { describe, expect, test } from "vitest";
import { startProgress } from "../../src/cli/progress.ts";
import { describeThroughput, uploadResult } from "../../src/cli/upload/upload-result.ts";
import type { Manifest } from "../../src/files/manifest.ts";

// The bar on a clock the test moves, drawn to a stream that is not a terminal: cli-progress then writes a line when
// it starts and one when it stops, the final state, which these tests read.

const MB = 1_000_000;

function fakeBar(total: number | undefined) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(
        ...chunk
          .toString()
          .split("\n")
          .filter((line) => line.trim() !== ""),
      );
      callback();
    },
  });
  const clock = { ms: 0 };
  const progress = startProgress({ label: "upload", total, unit: "bytes", enabled: true, now: () => clock.ms, stream });
  return { progress, clock, last: () => lines.at(-1) ?? "" };
}

const manifest = { totals: { numbers: 1_000_000 } } as Manifest;

describe("the upload bar and the summary", () => {
  test("end on the same rate: bytes over the time to the manifest, the worker's last work included", () => {
    const { progress, clock, last } = fakeBar(10 * MB);
    clock.ms = 100;
    progress.update(5 * MB); // the first bytes vanish into socket buffers
    clock.ms = 200;
    progress.update(10 * MB); // all handed to the connection...
    clock.ms = 4000; // ...and the worker answers 3.8 s later
    const seconds = progress.stop();
    expect(seconds).toBe(4);
    const summary = describeThroughput(uploadResult("numbers.txt", manifest, 10 * MB, seconds));
    expect(summary).toBe("sent 10 MB in 4s: 2.5 MB/s, 250,000 numbers/s");
    expect(last()).toBe("upload [==============================] 100% | 10 MB / 10 MB | 2.5 MB/s | ETA 0s");
  });

  test("a stream of unknown size ends on the summary's rate too", () => {
    const { progress, clock, last } = fakeBar(undefined);
    clock.ms = 500;
    progress.update(6 * MB);
    clock.ms = 3000;
    expect(progress.stop()).toBe(3);
    expect(last()).toBe("upload 6 MB | 2 MB/s");
  });

  test("stop draws once; later updates and stops change nothing", () => {
    const { progress, clock, last } = fakeBar(10 * MB);
    clock.ms = 1000;
    progress.update(MB);
    expect(progress.stop()).toBe(1);
    const drawn = last();
    clock.ms = 9000;
    progress.update(10 * MB);
    expect(progress.stop()).toBe(1);
    expect(last()).toBe(drawn);
  });
});

describe("the ETA", () => {
  test("is unknown while the rate rests on less than a few seconds: no 'ETA <1s' at 28%", () => {
    const { progress, clock, last } = fakeBar(100 * MB);
    clock.ms = 300;
    progress.update(28 * MB); // a burst into buffers, at memory speed
    progress.stop();
    expect(last()).toMatch(/28% \| 28 MB \/ 100 MB \| 93\.3 MB\/s \| ETA \?$/);
  });

  test("once a few seconds have passed, rests on the recent rate, past the burst at the start", () => {
    const { progress, clock, last } = fakeBar(100 * MB);
    clock.ms = 300;
    progress.update(28 * MB);
    for (let ms = 500; ms <= 5000; ms += 500) {
      clock.ms = ms;
      progress.update(28 * MB + (ms - 300) * 10_000); // 10 MB/s from then on
    }
    progress.stop();
    // 75 MB done after 5 s: 25 MB left at 10 MB/s is 3 s (the average since the start, 15 MB/s, would say 2 s).
    expect(last()).toMatch(/75% \| 75 MB \/ 100 MB \| 15 MB\/s \| ETA 3s$/);
  });
});
