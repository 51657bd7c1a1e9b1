import { expect, test } from "vitest";
test("node", () => { expect(process.version.startsWith("v24")).toBe(true); });
