// `papan worker`: engine workers on any machine for the computer players of the nodes that
// share its Redis bus (docs/operations.md, "Engine workers").
#pragma once

#include <cstdint>
#include <string>

namespace papan::server {

struct WorkerOptions {
    std::string bus;             // redis://[USER:PASSWORD@]HOST[:PORT][/DB]
    int threads = 0;             // searches at once; 0 = one per core
    std::string cluster_secret;  // empty: PAPAN_CLUSTER_SECRET
    std::string egdb_dir = "./data/egdb";
    std::string name;                   // empty: host name + process id
    std::int64_t claim_idle_ms = 2000;  // a job held this long by a silent worker is taken over
    int hash_mb                = 16;    // transposition table of each thread's engine
};

// Runs until SIGINT or SIGTERM; returns the process exit code. Throws std::runtime_error when
// the options are wrong or Redis cannot be reached at start.
int run_worker(const WorkerOptions& options);

}  // namespace papan::server
