// Groups of `papan serve` options registered from files of their own.
#pragma once

#include <papan/server/auth_options.hpp>

#include <CLI/CLI.hpp>

namespace papan::cli {

// --public-url, --oidc-*, --rated-requires, --telegram-*, --config (serve_auth_options.cpp).
void add_auth_options(CLI::App& cmd, server::AuthOptions& auth);

// Sets the options of --config's file that the command line did not give; throws CLI::Error on a
// file it cannot read or a key that is no option of `serve`. Call first in the command's callback.
void apply_config_file(CLI::App& cmd);

}  // namespace papan::cli
