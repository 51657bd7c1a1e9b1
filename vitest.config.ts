import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "node",
          include: ["test/**/*.test.ts"],
          exclude: ["test/worker/**", "test/**/*.workerd.test.ts"],
          environment: "node",
        },
      },
      {
        plugins: [
          cloudflareTest({
            main: "./src/worker/index.ts",
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: { bindings: { API_TOKEN: "test-token" } },
          }),
        ],
        test: {
          name: "workerd",
          include: ["test/worker/**/*.test.ts", "test/**/*.workerd.test.ts"],
        },
      },
    ],
  },
});
