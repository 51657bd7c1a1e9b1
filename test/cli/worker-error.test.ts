import { describe, expect, test } from "vitest";
import { EXIT_FAILURE } from "../../src/cli/cli-error.ts";
import { WorkerError } from "../../src/cli/worker-error.ts";

describe("WorkerError.from", () => {
  test("reads the worker's JSON error and adds line and column when the detail lacks them", async () => {
    const response = Response.json(
      { error: "invalid-number", detail: "Cannot parse: unexpected byte 0x78", line: 3, column: 2 },
      { status: 400 },
    );
    const error = await WorkerError.from(response, `upload "x"`);
    expect(error.message).toBe(
      'Cannot upload "x": the worker answered 400 invalid-number: ' +
        "Cannot parse: unexpected byte 0x78 (line 3, column 2)",
    );
    expect(error.status).toBe(400);
    expect(error.body?.line).toBe(3);
    expect(error.exitCode).toBe(EXIT_FAILURE);
  });

  test("does not repeat a position the detail already names", async () => {
    const response = Response.json(
      { error: "invalid-number", detail: "Cannot parse line 3, column 2: bad", line: 3, column: 2 },
      { status: 400 },
    );
    expect((await WorkerError.from(response, "upload")).message).toBe(
      "Cannot upload: the worker answered 400 invalid-number: Cannot parse line 3, column 2: bad",
    );
  });

  test("describes a body that is not the worker's JSON by its status and text", async () => {
    const response = new Response("<html>Bad Gateway</html>", { status: 502, statusText: "Bad Gateway" });
    expect((await WorkerError.from(response, "list files")).message).toBe(
      "Cannot list files: the worker answered 502 Bad Gateway: <html>Bad Gateway</html>",
    );
  });

  test("hints at the token on 401", async () => {
    const response = Response.json({ error: "unauthorized", detail: "Cannot authenticate" }, { status: 401 });
    expect((await WorkerError.from(response, "list files")).message).toMatch(
      /\(pass --token or set DRAINPIPE_TOKEN\)$/,
    );
  });
});
