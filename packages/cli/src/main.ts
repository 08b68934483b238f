import { readFileSync } from "node:fs";
import { createInterface } from "node:readline/promises";
import { Command, CommanderError, Option } from "commander";
import { chat } from "./chat";
import { asCliError, connect } from "./client";
import {
  configGet,
  configList,
  decide,
  historyList,
  historyShow,
  init,
  serverConfigList,
  status,
  toolsList,
} from "./commands";
import { CliError, EXIT, type ExitCode } from "./exit-codes";
import { runTask } from "./run";
import {
  loadCredentials,
  repoSetupCommand,
  resolveSettings,
  saveCredentials,
  setSetting,
  shownPath,
  splitList,
  userConfigFile,
  userRepoOnlyKeys,
  userServerLayer,
} from "./settings";

const print = (text: string): void => {
  process.stdout.write(`${text}\n`);
};
const printErr = (text: string): void => {
  process.stderr.write(`${text}\n`);
};

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}

async function client() {
  const credentials = await loadCredentials();
  return { client: connect(credentials), credentials };
}

async function prompt(question: string): Promise<string> {
  if (!process.stdin.isTTY)
    throw new CliError(`${question.replace(/: $/, "")} is needed (pass it as an option).`);
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

function program(setCode: (code: ExitCode) => void): Command {
  const cli = new Command("arbor")
    .description("Start, watch, answer and inspect Arbor runs from a terminal or CI.")
    .version(version(), "-v, --version")
    .showHelpAfterError()
    .exitOverride();

  cli
    .command("login")
    .description(
      "Store the server URL and an API token (made on your team's page) in ~/.config/arbor, mode 0600",
    )
    .option("--url <url>", "the Arbor server, e.g. https://arbor.example.com")
    .option(
      "--token <token>",
      "an API token (arb_…); prefer the prompt or ARBOR_TOKEN, which stay out of shell history",
    )
    .action(async (options: { url?: string; token?: string }) => {
      const url = options.url ?? process.env.ARBOR_URL ?? (await prompt("Arbor server URL: "));
      const token = options.token ?? process.env.ARBOR_TOKEN ?? (await prompt("API token: "));
      const me = await connect({ url, token })
        .apiToken.whoami.query()
        .catch((error: unknown) => {
          throw asCliError(error, url);
        });
      const file = await saveCredentials({ url, token });
      print(
        `Logged in to ${url} as ${me.user.name}${me.token ? ` with the token "${me.token.name}" (${me.token.role} in ${me.token.team?.name ?? "?"})` : ""}. Saved in ${file}.`,
      );
    });

  cli
    .command("run")
    .description("Start a task in a new session and follow it to its end")
    .argument("<task>", "what the agent should do")
    .option("-p, --project <project>", "project name or id (default: the config's project)")
    .addOption(
      new Option("--mode <mode>", "agent does the work; chat only answers").choices(["agent", "chat"]),
    )
    .option("--model <name>", "the model for this run only, over every other model setting")
    .option(
      "--approve <list>",
      "pre-approve: tool names (fs.write, git.add, shell.exec), categories (write, git-write), or command, decomposition",
    )
    .option("--no-wait", "print the session and return once the run started")
    .option("--json", "one JSON object per line: started, each event, result")
    .option("--ci", "never ask: anything not pre-approved stops the run (exit 5); implied without a terminal")
    .action(
      async (
        task: string,
        options: {
          project?: string;
          mode?: "agent" | "chat";
          model?: string;
          approve?: string;
          wait: boolean;
          json?: boolean;
          ci?: boolean;
        },
      ) => {
        const settings = await resolveSettings({
          ...(options.project ? { project: options.project } : {}),
          ...(options.mode ? { mode: options.mode } : {}),
          ...(options.approve !== undefined ? { approve: splitList(options.approve) } : {}),
        });
        // Checked before anything starts: a bad user file stops here, naming the file and the key.
        const cliConfig = await userServerLayer();
        const { client: arbor, credentials } = await client();
        setCode(
          await runTask(
            arbor,
            {
              task,
              project: settings.project.value,
              mode: settings.mode.value,
              model: options.model,
              cliConfig,
              approve: settings.approve.value,
              wait: options.wait,
              json: options.json ?? false,
              interactive: !options.ci && Boolean(process.stdin.isTTY) && Boolean(process.stderr.isTTY),
              serverUrl: credentials.url,
            },
            { out: print, err: printErr },
          ),
        );
      },
    );

  cli
    .command("approve")
    .description("Approve a waiting approval (see `arbor status`)")
    .argument("<approval>", "the approval's id")
    .option("--session <session>", "its session (default: found in your inbox)")
    .option("--edit <command>", "approve this command instead of the one asked (command approvals)")
    .option(
      "--edit-content <file>",
      "approve a file write with this file's content instead (`-`: standard input)",
    )
    .action(
      async (approvalId: string, options: { session?: string; edit?: string; editContent?: string }) => {
        const { client: arbor } = await client();
        const content =
          options.editContent === undefined
            ? undefined
            : readFileSync(options.editContent === "-" ? 0 : options.editContent, "utf8");
        await decide(
          arbor,
          { approvalId, session: options.session, decision: "approved", command: options.edit, content },
          print,
        );
      },
    );

  cli
    .command("reject")
    .description("Reject a waiting approval")
    .argument("<approval>", "the approval's id")
    .option("--session <session>", "its session (default: found in your inbox)")
    .option("--reason <reason>", "why, for the agent and the log")
    .option("--abort", "reject and end the run")
    .action(async (approvalId: string, options: { session?: string; reason?: string; abort?: boolean }) => {
      const { client: arbor } = await client();
      await decide(
        arbor,
        {
          approvalId,
          session: options.session,
          decision: "rejected",
          reason: options.reason,
          abort: options.abort,
        },
        print,
      );
    });

  cli
    .command("status")
    .description("Who you are, what the token reaches, the server's model and Docker, and what waits for you")
    .option("--json", "as JSON")
    .action(async (options: { json?: boolean }) => {
      const { client: arbor } = await client();
      await status(arbor, options.json ?? false, print);
    });

  const history = cli.command("history").description("Past sessions");
  history
    .command("list")
    .description("A project's sessions, newest first, with their last run's status")
    .option("-p, --project <project>", "project name or id (default: the config's project)")
    .option("--json", "as JSON")
    .action(async (options: { project?: string; json?: boolean }) => {
      const settings = await resolveSettings(options.project ? { project: options.project } : {});
      const { client: arbor } = await client();
      await historyList(arbor, settings.project.value, options.json ?? false, print);
    });
  history
    .command("show")
    .description("A session's replay: its tree as text, or its event log as JSON")
    .argument("<session>", "the session's id")
    .option("--json", "the event log as JSON")
    .action(async (sessionId: string, options: { json?: boolean }) => {
      const { client: arbor } = await client();
      await historyShow(arbor, sessionId, options.json ?? false, print);
    });

  cli
    .command("tools")
    .description("The agent's tools")
    .command("list")
    .description("Every tool, its category and whether it asks (names --approve takes)")
    .option("--json", "as JSON")
    .action(async (options: { json?: boolean }) => {
      const { client: arbor } = await client();
      await toolsList(arbor, options.json ?? false, print);
    });

  const config = cli
    .command("config")
    .description(
      "The CLI's settings: flags > env > .arbor/config.yaml > ~/.config/arbor/config.yaml > defaults",
    );
  config
    .command("list")
    .description("Every setting, its value and where it comes from")
    .option("--json", "as JSON")
    .option(
      "--server",
      "the server's settings for the project's runs (model, checkpoints) with their sources",
    )
    .option("-p, --project <project>", "with --server: project name or id (default: the config's project)")
    .action(async (options: { json?: boolean; server?: boolean; project?: string }) => {
      const settings = await resolveSettings(options.project ? { project: options.project } : {});
      const files = {
        userFile: shownPath(userConfigFile()),
        userLayer: await userServerLayer(),
        userRepoOnly: await userRepoOnlyKeys(),
        repoSetupCommand: await repoSetupCommand(),
      };
      if (!options.server) return configList(settings, files, options.json ?? false, print);
      const { client: arbor } = await client();
      await serverConfigList(arbor, settings.project.value, files, options.json ?? false, print);
    });
  config
    .command("get")
    .argument("<key>", "project, mode or approve")
    .action(async (key: string) => configGet(await resolveSettings(), key, print));
  config
    .command("set")
    .argument("<key>", "project, mode or approve")
    .argument("<value>", "the value (approve: a comma-separated list)")
    .option("--repo", "in the repository's .arbor/config.yaml instead of your user config")
    .action(async (key: string, value: string, options: { repo?: boolean }) => {
      const file = await setSetting(key, value, options.repo ? "repo" : "user");
      print(`Set ${key} in ${file}.`);
    });

  cli
    .command("init")
    .description("Write .arbor/config.yaml in this repository from the settings in force")
    .option("-p, --project <project>", "the project runs in this repository use")
    .option("--force", "overwrite an existing file")
    .action(async (options: { project?: string; force?: boolean }) => {
      await init(
        await resolveSettings(options.project ? { project: options.project } : {}),
        options.force ?? false,
        print,
      );
    });

  cli
    .command("chat")
    .description("Ask questions about a project in Chat mode (answers only; nothing is changed)")
    .option("-p, --project <project>", "project name or id (default: the config's project)")
    .option("--model <name>", "the model for these answers")
    .action(async (options: { project?: string; model?: string }) => {
      const settings = await resolveSettings(options.project ? { project: options.project } : {});
      const cliConfig = await userServerLayer();
      const { client: arbor, credentials } = await client();
      setCode(
        await chat(
          arbor,
          { project: settings.project.value, serverUrl: credentials.url, model: options.model, cliConfig },
          { out: print, err: printErr },
        ),
      );
    });

  cli
    .command("version")
    .description("The CLI's version")
    .action(() => {
      print(`arbor ${version()}`);
    });

  return cli;
}

/** Runs the command line; returns the exit code (see exit-codes.ts and the README). */
export async function main(argv: string[]): Promise<ExitCode> {
  let code: ExitCode = EXIT.VERIFIED;
  try {
    await program((next) => {
      code = next;
    }).parseAsync(argv);
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here too, successfully.
      return error.exitCode === 0 ? EXIT.VERIFIED : EXIT.ERROR;
    }
    const failure = asCliError(error);
    printErr(`arbor: ${failure.message}`);
    return failure.code;
  }
}
