import "server-only";
import { z } from "zod";
import { createRouter, publicProcedure } from "@/server/api/trpc";
import { signUp } from "@/server/auth/users";
import { displayName } from "@/server/domain/text/display-name";

export const SignUpInput = z.object({
  name: displayName({ what: "name", empty: "Tell us your name.", max: 100 }),
  email: z.email("That is not an email address."),
  password: z
    .string()
    .min(8, "Use at least 8 characters.")
    .max(200, "A password has at most 200 characters."),
});

export const authRouter = createRouter({
  signUp: publicProcedure.input(SignUpInput).mutation(({ input }) => signUp(input)),
});
