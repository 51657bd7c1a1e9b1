import { describe, expect, test } from "vitest";
import { callWorker } from "../support/call-worker.ts";

// POST /files/:name of a multipart/form-data form, inside workerd with real miniflare R2 and Durable Objects: the file
// field is stored as a raw body of the same bytes is; a bad line is the file's own; forms that carry no file bytes
// are refused.

const origin = "http://drainpipe.test";
const auth = { Authorization: "Bearer test-token" };

function post(name: string, body: BodyInit, headers: Record<string, string> = {}) {
  return callWorker(new Request(`${origin}/files/${name}`, { method: "POST", headers: { ...auth, ...headers }, body }));
}

async function content(name: string): Promise<string> {
  const response = await callWorker(new Request(`${origin}/files/${name}/content`, { headers: auth }));
  expect(response.status).toBe(200);
  return response.text();
}

/** A form with a note field and `text` as the file field `file`. */
function formOf(text: string): FormData {
  const data = new FormData();
  data.append("note", "uploaded from a form");
  data.append("file", new File([text], "primes.txt", { type: "text/plain" }));
  return data;
}

describe("form uploads", () => {
  test("a multipart/form-data form stores its file field as the same raw body stores", async () => {
    const text = "2\r\n3\n005\n\n-0\n7";
    const formed = await post("formed", formOf(text));
    expect(formed.status, await formed.clone().text()).toBe(201);
    expect((await post("raw", text)).status).toBe(201);
    expect(await content("formed")).toBe(await content("raw"));
    const manifest = (await formed.json()) as { source: { bytes: number; lines: number } };
    expect(manifest.source).toMatchObject({ bytes: text.length, lines: 6 });
  });

  test("a bad line in the file field is answered with the file's own line, column and offset", async () => {
    const text = "1\n2\n3x\n4\n";
    const formed = await post("formed-bad", formOf(text));
    const raw = await post("raw-bad", text);
    expect(formed.status).toBe(400);
    const [a, b] = [(await formed.json()) as object, (await raw.json()) as object];
    expect(a).toEqual(b);
    expect(a).toMatchObject({ error: "invalid-number", line: 3, column: 2, offset: 5 });
  });

  test("a form's file name sent URL-encoded gets a hint; curl --data-binary's label stays a raw body", async () => {
    const urlEncoded = { "Content-Type": "application/x-www-form-urlencoded" };
    const encoded = await post("urlencoded", "file=primes.txt", urlEncoded);
    expect(encoded.status).toBe(400);
    const refusal = (await encoded.json()) as { error: string; line: number; detail: string };
    expect(refusal).toMatchObject({ error: "invalid-number", line: 1 });
    expect(refusal.detail).toContain('enctype="multipart/form-data"');
    expect((await post("labelled", "1\n2\n", urlEncoded)).status).toBe(201);
    expect(await content("labelled")).toBe("1\n2\n");
  });

  test("a form without a file, or with two, is 400; nothing is stored", async () => {
    const fieldsOnly = new FormData();
    fieldsOnly.append("note", "no file here");
    const none = await post("no-file", fieldsOnly);
    expect(none.status).toBe(400);
    expect(((await none.json()) as { error: string }).error).toBe("missing-file");
    const two = formOf("1\n");
    two.append("other", new File(["2\n"], "two.txt"));
    const twice = await post("two-files", two);
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as { error: string }).error).toBe("too-many-files");
    for (const name of ["urlencoded", "no-file", "two-files"]) {
      expect((await callWorker(new Request(`${origin}/files/${name}`, { headers: auth }))).status).toBe(404);
    }
  });
});
