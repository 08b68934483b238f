import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

/**
 * The API's inputs and outputs as the browser sees them, taken from the router's type. Client files
 * name server data by these (or by the domain layer's types), never by a server module's own types.
 */
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
