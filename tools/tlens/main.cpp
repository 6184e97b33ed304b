// tlens: one binary, one subcommand per feature.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "engine/core/Error.h"
#include "tools/tlens/Commands.h"

namespace {

struct Command {
  const char* name;
  int (*fn)(const tlens::cli::Args&);
  const char* help;
};

const Command kCommands[] = {
    {"run", tlens::cli::runCommand,
     "run a program: [--check-numerics] [--log-device-placement] [--device cpu|gpu] [--virtual-gpus N] [--mode auto|eager|graph] [--dump DIR] prog.py [args]"},
    {"check", tlens::cli::checkCommand, "analyse programs without running them: [--format text|json] [--hints] [--budget-steps N] [--budget-ms N] [--agreement] PATH..."},
    {"graph", tlens::cli::graphCommand, "print the graphs a program builds: [--format dot|json] [--abstract] prog.py"},
    {"dap", tlens::cli::dapCommand, "the Debug Adapter Protocol server: over stdio, or [--port N] over TCP on 127.0.0.1"},
    {"lsp", tlens::cli::lspCommand, "the language server over stdio, or TCP on 127.0.0.1: [--port N]"},
    {"ops", tlens::cli::opsCommand, "list the op registry: types, Python names, inputs, attributes (--json)"},
    {"train-mlp", tlens::cli::trainCommand,
     "train a 784-256-256-10 MLP with Adam on synthetic data (--steps N --batch B --check-numerics --device-placement --threads T)"},
};

void usage() {
  std::printf("usage: tlens <command> [args]\n\ncommands:\n");
  for (const Command& c : kCommands) std::printf("  %-10s %s\n", c.name, c.help);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
    usage();
    return argc < 2 ? 2 : 0;
  }
  if (!std::strcmp(argv[1], "--version") || !std::strcmp(argv[1], "version")) {
    std::printf("tensorlens 0.1.0\n");
    return 0;
  }
  tlens::cli::Args args(argv + 2, argv + argc);
  for (const Command& c : kCommands) {
    if (std::strcmp(argv[1], c.name) != 0) continue;
    try {
      return c.fn(args);
    } catch (const tlens::EngineError& e) {
      std::fprintf(stderr, "%s\n", e.full().c_str());
      return 1;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "error: %s\n", e.what());
      return 1;
    }
  }
  std::fprintf(stderr, "tlens: unknown command '%s'\n\n", argv[1]);
  usage();
  return 2;
}
