/*
 * src/cli/cli_commands.h: the subcommands of the pgbenchx client program
 * (report, compare, chart, export, import), src/cli/cli_commands.c.
 */
#ifndef PGBENCHX_CLI_COMMANDS_H
#define PGBENCHX_CLI_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>

/* true when word names a subcommand ("report", "compare", ...) */
extern bool cli_is_command(const char *word);

/*
 * runs the subcommand argv[0] with its arguments (prog: the program's
 * argv[0], for getopt's messages); returns the exit code
 */
extern int	cli_command_main(int argc, char **argv, char *prog);

/* the "Subcommands:" part of pgbenchx --help */
extern void cli_commands_usage(FILE *out);

#endif							/* PGBENCHX_CLI_COMMANDS_H */
