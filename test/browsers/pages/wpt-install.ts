/**
 * The classic script a WPT page loads before the test's includes when drainpipe is under test
 * (`test/wpt/browser-suite.ts`): replaces the browser's stream classes on the global with drainpipe's, as the
 * runner does on every other runtime (a class drainpipe lacks is removed, never left native).
 *
 * @module
 */
import * as drainpipe from "../../../src/streams/index.ts";
import { installImplementation } from "../../wpt/harness-session.ts";

installImplementation(drainpipe as unknown as Record<string, unknown>);
