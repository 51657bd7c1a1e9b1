/** Reads a whole byte stream into one array. */
export async function readBytes(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** ASCII/UTF-8 text as bytes. */
export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Bytes as UTF-8 text. */
export function text(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

/** A stream that yields `bytes` cut into chunks of the given sizes (the rest in one last chunk). */
export function chunkedStream(bytes: Uint8Array, sizes: number[] = []): ReadableStream<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let offset = 0;
  for (const size of sizes) {
    if (offset >= bytes.length) break;
    chunks.push(bytes.slice(offset, offset + size));
    offset += size;
  }
  if (offset < bytes.length) chunks.push(bytes.slice(offset));
  return new ReadableStream({
    pull(controller) {
      const chunk = chunks.shift();
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
  });
}
