/**
 * The page of `safe.test.ts`: runs the checks (`safe-checks.ts`) here, in a dedicated worker (`worker.js` next to
 * this script) and in a service worker (`sw.js`, scoped to this page's folder), and exposes the three reports as
 * the promise `globalThis.safeReports`.
 *
 * @module
 */
import { runSafeChecks, type SafeReport } from "./safe-checks.ts";

/** What the page resolves `globalThis.safeReports` with. */
export interface SafeReports {
  page: SafeReport;
  dedicatedWorker: SafeReport;
  serviceWorker: SafeReport;
}

const folder = new URL(".", location.href).pathname;

function fromDedicatedWorker(): Promise<SafeReport> {
  const worker = new Worker(`${folder}worker.js`);
  return new Promise((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<SafeReport>) => resolve(event.data);
    worker.onerror = (event) => reject(new Error(`the dedicated worker failed: ${event.message}`));
  });
}

async function fromServiceWorker(): Promise<SafeReport> {
  const registration = await navigator.serviceWorker.register(`${folder}sw.js`, { scope: folder });
  const worker = registration.installing ?? registration.waiting ?? registration.active;
  if (worker === null) throw new Error("the service worker did not register");
  const channel = new MessageChannel();
  const answer = new Promise<SafeReport>((resolve) => {
    channel.port1.onmessage = (event: MessageEvent<SafeReport>) => resolve(event.data);
  });
  worker.postMessage("run", [channel.port2]);
  return answer;
}

async function all(): Promise<SafeReports> {
  const page = await runSafeChecks("page");
  const dedicatedWorker = await fromDedicatedWorker();
  const serviceWorker = await fromServiceWorker();
  return { page, dedicatedWorker, serviceWorker };
}

(globalThis as { safeReports?: Promise<SafeReports> }).safeReports = all();
