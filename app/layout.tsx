import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Providers } from "./_trpc/client";
import "./globals.css";

export const metadata: Metadata = {
  title: "Arbor",
  description: "A coding agent that decomposes what it cannot verify.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
