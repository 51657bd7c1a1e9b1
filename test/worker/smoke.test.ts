import { env, exports } from "cloudflare:workers";
import { expect, test } from "vitest";
test("smoke", async () => {
  await env.BUCKET.put("a", "b");
  const r = await exports.default.fetch("http://x/");
  expect(await r.text()).toBe("hi");
  expect(await (await env.BUCKET.get("a"))!.text()).toBe("b");
});
