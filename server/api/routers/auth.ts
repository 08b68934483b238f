import { z } from "zod";
import { createRouter, publicProcedure } from "@/server/api/trpc";
import { signUp } from "@/server/auth/users";

export const SignUpInput = z.object({
  name: z.string().trim().min(1, "Tell us your name.").max(100, "A name has at most 100 characters."),
  email: z.email("That is not an email address."),
  password: z
    .string()
    .min(8, "Use at least 8 characters.")
    .max(200, "A password has at most 200 characters."),
});

export const authRouter = createRouter({
  signUp: publicProcedure.input(SignUpInput).mutation(({ input }) => signUp(input)),
});
