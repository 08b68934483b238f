/** @type {import('next').NextConfig} */
const nextConfig = {
  // Compression would buffer the SSE stream of live events; a reverse proxy can compress instead.
  compress: false,
  poweredByHeader: false,
  // Native and Node-only packages stay outside the bundle.
  serverExternalPackages: [
    "better-sqlite3",
    "dockerode",
    "ssh2",
    "cpu-features",
    "pino",
    "@prisma/adapter-better-sqlite3",
    "@prisma/adapter-pg",
  ],
  typedRoutes: false,
};

export default nextConfig;
