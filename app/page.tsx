import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import { authOptions } from "@/server/auth/options";

// Per request (the redirect depends on the cookie), never prerendered: the build has no secrets.
export const dynamic = "force-dynamic";

export default async function Home() {
  const session = await getServerSession(authOptions);
  redirect(session ? "/projects" : "/login");
}
