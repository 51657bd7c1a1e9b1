/**
 * The service worker of `safe.test.ts`: on a message carrying a port, runs the checks (`safe-checks.ts`) and posts
 * the report on that port.
 *
 * @module
 */
import { runSafeChecks } from "./safe-checks.ts";

/** The part of a service worker's `message` event used here. */
interface MessageEventInServiceWorker extends MessageEvent {
  waitUntil(promise: Promise<unknown>): void;
}

self.addEventListener("message", (event) => {
  const message = event as MessageEventInServiceWorker;
  const port = message.ports[0];
  if (port === undefined) return;
  message.waitUntil(runSafeChecks("service worker").then((report) => port.postMessage(report)));
});
