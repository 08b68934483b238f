import "server-only";
import { Writable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import type { OutputStream } from "@/server/domain/sandbox-port";
import { CappedOutput } from "./output";

/**
 * One output stream of one command: bytes go to the capped capture, decoded text to the live
 * callback. Both exec paths (Docker's exec API and the shell agent's frames) feed one of these.
 */
export class OutputSink {
  readonly capture: CappedOutput;
  private readonly decoder = new StringDecoder("utf8");

  constructor(
    private readonly name: OutputStream,
    maxBytes: number,
    private readonly onOutput?: (stream: OutputStream, chunk: string) => void,
  ) {
    this.capture = new CappedOutput(maxBytes);
  }

  push(chunk: Buffer): void {
    // Copy: the capture keeps references, and a producer may reuse its buffer.
    this.capture.push(Buffer.from(chunk));
    this.emit(this.decoder.write(chunk));
  }

  /** A stream that pushes what is written to it, for Docker's demultiplexer. */
  writable(): Writable {
    return new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        this.push(chunk);
        callback();
      },
    });
  }

  finish(): string {
    this.emit(this.decoder.end());
    return this.capture.toString();
  }

  private emit(text: string): void {
    if (text === "" || !this.onOutput) return;
    try {
      this.onOutput(this.name, text);
    } catch {
      // A failing listener (e.g. a closed browser stream) must not break the command's result.
    }
  }
}
