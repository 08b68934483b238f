import { requireUserId } from "@/server/auth/session";
import { AppHeader } from "../_components/app-header";
import { InboxList } from "../_components/inbox/inbox-list";

export const dynamic = "force-dynamic";

export default async function InboxPage() {
  await requireUserId();
  return (
    <>
      <AppHeader />
      <main className="page">
        <InboxList />
      </main>
    </>
  );
}
