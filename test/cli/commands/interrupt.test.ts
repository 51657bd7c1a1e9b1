import type { ChildProcess } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useRemoteWorker } from "../remote-worker.ts";

// Ctrl-C during an upload, and sweeping, against a worker in local workerd (with its file coordinators) reached
// with --url and --token.
const fixture = useRemoteWorker("drainpipe-interrupt-");

function remote(args: string[], onStart?: (child: ChildProcess) => void) {
  return fixture.remote(args, { onStart });
}

async function uploadsInFlight(name: string): Promise<unknown[]> {
  const response = await fetch(`${fixture.worker.url}/files/${name}/uploads`, {
    headers: { Authorization: `Bearer ${fixture.worker.token}` },
  });
  return ((await response.json()) as { uploads: unknown[] }).uploads;
}

async function sessionsInFlight(name: string): Promise<unknown[]> {
  const response = await fetch(`${fixture.worker.url}/files/${name}/uploads`, {
    headers: { Authorization: `Bearer ${fixture.worker.token}` },
  });
  return ((await response.json()) as { sessions: unknown[] }).sessions;
}

describe("Ctrl-C during upload", () => {
  test("aborts the upload, waits for the worker to remove the attempt, says so and exits 130", async () => {
    const file = join(fixture.directory, "big.txt");
    await writeFile(file, "1234567890123\n".repeat(5_000_000));
    let signalled = false;
    let asking = false;
    const run = await remote(["upload", file, "--name", "cancelled", "--max-part-bytes", "1048576"], (child) => {
      // Ctrl-C once the worker lists the upload in flight: the request is under way.
      const poll = setInterval(() => {
        if (asking || signalled) return;
        asking = true;
        uploadsInFlight("cancelled")
          .then((uploads) => {
            if (uploads.length === 0 || signalled) return;
            signalled = true;
            clearInterval(poll);
            child.kill("SIGINT");
          })
          .catch(() => undefined)
          .finally(() => {
            asking = false;
          });
      }, 50);
      child.on("exit", () => clearInterval(poll));
    });
    expect(signalled).toBe(true);
    expect(run.code).toBe(130);
    expect(run.stderr).toContain(`drainpipe: upload of "cancelled" cancelled; the worker removed the partial upload`);
    expect(await uploadsInFlight("cancelled")).toEqual([]);
    const leftovers = await remote(["rm", "cancelled"]);
    expect(leftovers.code).toBe(1);
    expect(leftovers.stderr).toContain("404 not-found");
  }, 60_000);
});

describe("Ctrl-C during upload from standard input", () => {
  /** Writes `bytes` of numbers to the child's stdin, keeping the pipe open; resolves once the child has read them. */
  const feed = (child: ChildProcess, bytes: number) =>
    new Promise<void>((resolve) => {
      child.stdin?.on("error", () => undefined); // EPIPE once the CLI exits without reading it all
      child.stdin?.write("1234567890123\n".repeat(bytes / 14), () => resolve());
    });

  test("while it is still read, before anything is sent: stops, says so, exits 130", async () => {
    let signalled = false;
    const run = await fixture.remote(["upload", "-", "--name", "piped-cancelled"], {
      stdin: true,
      onStart: (child) => {
        // 2 MB, and the pipe stays open: the CLI holds them, waiting for the input to end or pass the worker's
        // segment limit before it sends anything.
        void feed(child, 2_000_006).then(() => {
          signalled = true;
          child.kill("SIGINT");
        });
        child.on("exit", () => child.stdin?.destroy());
      },
    });
    expect(signalled).toBe(true);
    expect(run.code).toBe(130);
    expect(run.stderr).toContain('drainpipe: upload of "piped-cancelled" cancelled before anything was sent');
    expect(await uploadsInFlight("piped-cancelled")).toEqual([]);
    expect((await remote(["rm", "piped-cancelled"])).stderr).toContain("404 not-found");
  }, 60_000);

  test("as a session under way: aborts the session, says so, exits 130", async () => {
    let signalled = false;
    const run = await fixture.remote(["upload", "-", "--name", "piped-session", "--segment-bytes", "100000"], {
      stdin: true,
      onStart: (child) => {
        void feed(child, 2_000_006);
        const poll = setInterval(async () => {
          if (signalled) return;
          const sessions = await sessionsInFlight("piped-session").catch(() => []);
          if (sessions.length === 0 || signalled) return;
          signalled = true;
          clearInterval(poll);
          child.kill("SIGINT");
        }, 50);
        child.on("exit", () => {
          clearInterval(poll);
          child.stdin?.destroy();
        });
      },
    });
    expect(signalled).toBe(true);
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toMatch(/cancelled\nthe worker removed the upload session \(\S+\)\n$/);
    expect(await sessionsInFlight("piped-session")).toEqual([]);
  }, 60_000);
});

describe("Ctrl-C during get -o", () => {
  test("keeps the partial file, says how much it holds and the command that continues it", {
    timeout: 120_000,
  }, async () => {
    const name = "interrupted-get";
    const stored = await fetch(`${fixture.worker.url}/files/${name}/primes?count=20000000`, {
      method: "POST",
      headers: { Authorization: `Bearer ${fixture.worker.token}` },
    });
    expect(stored.status).toBe(201);
    const output = join(fixture.directory, "interrupted.txt");
    let signalled = false;
    const run = await remote(["get", name, "-o", output], (child) => {
      // Ctrl-C once the first bytes are in the file: the download is under way, far from its end.
      const poll = setInterval(() => {
        if (signalled || !existsSync(output) || statSync(output).size === 0) return;
        signalled = true;
        clearInterval(poll);
        child.kill("SIGINT");
      }, 5);
      child.on("exit", () => clearInterval(poll));
    });
    expect(signalled).toBe(true);
    expect(run.code).toBe(130);
    const hint =
      /drainpipe: download of "interrupted-get" interrupted with .+ in (.+); continue it with:\n {2}(.+)\n/.exec(
        run.stderr,
      );
    expect(hint, run.stderr).not.toBeNull();
    expect(hint![2]).toMatch(/ get interrupted-get -o \S*interrupted\.txt --resume --url \S+ --token <token>$/);
    const partial = statSync(output).size;
    expect(partial).toBeGreaterThan(0);
    const resumed = await remote(["get", name, "-o", output, "--resume", "--json"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const summary = JSON.parse(resumed.stdout) as { resumedFrom: number; bytes: number };
    expect(summary.resumedFrom).toBe(partial);
    const content = await fetch(`${fixture.worker.url}/files/${name}/content`, {
      headers: { Authorization: `Bearer ${fixture.worker.token}` },
    });
    expect(Buffer.from(await content.arrayBuffer()).equals(await readFile(output))).toBe(true);
  });
});

describe("sweep", () => {
  test("reports what it removed, as text and as JSON", async () => {
    const text = await remote(["sweep"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^swept \d+ file names?: removed \d+ objects? nothing referred to\n$/);
    const json = await remote(["sweep", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual({ names: expect.any(Number), removed: 0 });
  });
});
