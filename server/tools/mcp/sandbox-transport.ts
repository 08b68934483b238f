import "server-only";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { SandboxProcess } from "@/server/sandbox/types";

/** The last stderr the server printed, kept for the error a crash or a failed start shows. */
const STDERR_TAIL_CHARS = 2_000;

/**
 * The SDK's stdio transport, over a program in the session's sandbox instead of a local child process:
 * newline-delimited JSON-RPC on the program's stdin and stdout (MCP's stdio transport), the SDK's own
 * line reader and serializer. The program is started by the sandbox (`openProcess`), never here, so
 * the transport cannot run anything; it only speaks over the streams it is given.
 */
export class SandboxStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();
  private stderr = "";
  private started = false;

  constructor(private readonly process: SandboxProcess) {}

  /** What the program last wrote to stderr (its own error messages), trimmed. */
  get stderrTail(): string {
    return this.stderr.trim();
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("SandboxStdioTransport already started");
    this.started = true;
    this.process.onStdout((chunk) => {
      this.buffer.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.buffer.readMessage();
        } catch (error) {
          // A line that is not JSON-RPC (a stray log line on stdout) is reported, not fatal.
          this.onerror?.(error instanceof Error ? error : new Error(String(error)));
          continue;
        }
        if (message === null) break;
        this.onmessage?.(message);
      }
    });
    this.process.onStderr((chunk) => {
      this.stderr = (this.stderr + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
    });
    this.process.onExit(() => {
      this.buffer.clear();
      this.onclose?.();
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.process.exited) throw new Error("the MCP server's program has exited");
    this.process.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    await this.process.close();
  }
}
