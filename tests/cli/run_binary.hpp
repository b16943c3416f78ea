// Runs the real `papan` binary (PAPAN_BINARY) as a subprocess through the shell, with optional
// standard input, and captures its exit code, stdout and stderr.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace papan::test {

struct RunResult {
    int exit_code = -1;
    std::string out;
    std::string err;
};

inline std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) {
        if (c == '\'') {
            q += "'\\''";
        } else {
            q += c;
        }
    }
    return q + "'";
}

// `args` is appended to the binary path as shell words (quote them with shell_quote).
inline RunResult run_papan(const std::string& args, const std::string& stdin_text = "") {
    char dir_template[]    = "/tmp/papan-cli-test-XXXXXX";
    const char* dir        = mkdtemp(dir_template);
    const std::string base = dir != nullptr ? dir : "/tmp";
    const std::string in   = base + "/in";
    const std::string out  = base + "/out";
    const std::string err  = base + "/err";
    {
        std::ofstream f(in, std::ios::binary);
        f << stdin_text;
    }
    const std::string cmd =
        std::string(PAPAN_BINARY) + " " + args + " <" + in + " >" + out + " 2>" + err;
    const int status = std::system(cmd.c_str());
    RunResult r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out       = read_file(out);
    r.err       = read_file(err);
    std::remove(in.c_str());
    std::remove(out.c_str());
    std::remove(err.c_str());
    rmdir(base.c_str());
    return r;
}

}  // namespace papan::test
