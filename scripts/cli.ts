// The command-line conventions of the project's scripts: strict options, `--help`, French
// messages, exit code 2 on bad usage (the message, then the usage line).
import { parseArgs, type ParseArgsConfig } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;
export type CliValues = Record<string, string | boolean | undefined>;

export function createCli(usage: string) {
  const fail = (message: string): never => {
    console.error(`${message}\n${usage}`);
    process.exit(2);
  };
  return {
    fail,
    /** The options given, or null after printing the usage for `--help` / `-h`. */
    parse(options: Options): CliValues | null {
      let values: CliValues;
      try {
        ({ values } = parseArgs({
          args: process.argv.slice(2),
          options: { ...options, help: { type: "boolean", short: "h" } },
          strict: true,
          allowPositionals: false,
        }) as { values: CliValues });
      } catch (error) {
        return fail(error instanceof Error ? error.message : String(error));
      }
      if (values.help) {
        console.log(usage);
        return null;
      }
      return values;
    },
    /** A whole number option ≥ `min`, `fallback` when absent. */
    count(name: string, value: string | boolean | undefined, fallback: number, min: number): number {
      if (value === undefined) return fallback;
      const text = String(value).trim();
      const n = Number(text);
      if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < min) fail(`--${name} doit être un entier ≥ ${min} (reçu : ${String(value)}).`);
      return n;
    },
    /** A string option (undefined when absent). */
    string(value: string | boolean | undefined): string | undefined {
      return typeof value === "string" ? value : undefined;
    },
  };
}
