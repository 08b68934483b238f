import { handleTerminalPeerRequest } from "@/server/api/terminal-peer";
import { BODY_LIMITS } from "@/server/http/body-limit";
import { withBodyLimit } from "@/server/http/route-handlers";

export const dynamic = "force-dynamic";

/** Instance to instance only: the session terminal's relay in a cluster (server/api/terminal-peer.ts). */
export const POST = withBodyLimit(BODY_LIMITS.signedIn, (request) => handleTerminalPeerRequest(request));
