import { requireUserId } from "@/server/auth/session";
import { PersonalSettingsForm } from "../_components/account/personal-settings-form";
import { AppHeader } from "../_components/app-header";

export const dynamic = "force-dynamic";

export default async function AccountPage() {
  await requireUserId();
  return (
    <>
      <AppHeader />
      <main className="page">
        <h1>Your settings</h1>
        <PersonalSettingsForm />
      </main>
    </>
  );
}
